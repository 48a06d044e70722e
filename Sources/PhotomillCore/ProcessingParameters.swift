/// The parameters that shape results: set by the coordinator, sent with each JOB, used by
/// the processors. Everything here is part of a result's recipe.
public struct ProcessingParameters: Sendable, Hashable, Codable {
    /// Longest side of a thumbnail in pixels; smaller images are never upscaled.
    public var thumbnailSize: Int = 256
    public var thumbnailQuality: Int = 80
    /// Tesseract language(s), e.g. "eng" or "eng+deu".
    public var ocrLanguage: String = "eng"
    /// Longest side the page is reduced to before OCR.
    public var ocrMaxSide: Int = 4096
    /// Mean word confidence (tesseract's 0…100) under which an OCR reading is junk, not
    /// text: it is kept as "no text" with its confidence (docs/processing.md, "OCR").
    public var ocrMinConfidence: Int = 80
    /// Images with more pixels are refused (`too-large`) before any decoding.
    public var pixelLimit: Int = 200_000_000

    public init() {}
}

extension ProcessingParameters {
    /// Bumped when a processor's code changes what it produces for the same input.
    public static let codeVersions: [Kind: Int] = [.hash: 1, .metadata: 2, .thumbnail: 2, .ocr: 2]

    /// The recipe of a result: the code version and the parameters that shape it.
    /// `reprocess --outdated` requeues results whose recipe differs from the current one.
    public func recipe(for kind: Kind) -> String {
        let version = Self.codeVersions[kind] ?? 0
        switch kind {
        case .hash: return "hash/\(version)"
        case .metadata: return "metadata/\(version)"
        case .thumbnail: return "thumbnail/\(version) size=\(thumbnailSize) q=\(thumbnailQuality)"
        case .ocr: return "ocr/\(version) lang=\(ocrLanguage) side=\(ocrMaxSide) min=\(ocrMinConfidence)"
        }
    }

    /// The recipe of every kind.
    public var recipes: [Kind: String] {
        Dictionary(uniqueKeysWithValues: Kind.allCases.map { ($0, recipe(for: $0)) })
    }
}
