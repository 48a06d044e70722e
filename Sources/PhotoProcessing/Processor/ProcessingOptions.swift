/// The parameters that shape results. Everything here is part of a result's recipe.
public struct ProcessingOptions: Sendable, Hashable, Codable {
    /// Longest side of a thumbnail in pixels; smaller images are never upscaled.
    public var thumbnailSize: Int = 256
    public var thumbnailQuality: Int = 80
    /// Tesseract language(s), e.g. "eng" or "eng+deu".
    public var ocrLanguage: String = "eng"
    /// Longest side the page is reduced to before OCR.
    public var ocrMaxSide: Int = 4096
    /// Images with more pixels are refused (`too-large`) before any decoding.
    public var pixelLimit: Int = 200_000_000

    public init() {}
}
