import CVips
import PhotomillCore
import Foundation

/// Computes the requested kinds for one photo from a single read of its file.
///
/// Not thread-safe: it keeps a tesseract engine for reuse, so give each thread its own
/// processor (see `ProcessingPool`).
public final class PhotoProcessor {
    public var parameters: ProcessingParameters
    private var recognizer: TextRecognizer?

    public init(parameters: ProcessingParameters = ProcessingParameters()) {
        self.parameters = parameters
    }

    /// `sidecar`: the photo's XMP sidecar, merged into its metadata (`mergeSidecar`).
    public func process(path: String, kinds: Set<Kind>, sidecar: SidecarInput? = nil) -> PhotoResult {
        var result = PhotoResult(path: path)
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            let cause = (error as NSError).localizedFailureReason ?? error.fileSystemReason
            for kind in kinds { result.errors[kind] = ProcessingError(.unreadable, "\(path): cannot read: \(cause)") }
            return result
        }
        result.fileSize = bytes.count
        bytes.withUnsafeBytes { buffer in
            process(buffer, path: path, kinds: kinds, sidecar: sidecar, into: &result)
        }
        if kinds.contains(.metadata), result.metadata != nil {
            result.metadata?.fileModificationDate = Self.modificationDate(of: path)
        }
        return result
    }

    /// Processes bytes already in memory (a file read once, or bytes sent over the wire).
    public func process(_ bytes: UnsafeRawBufferPointer, path: String, kinds: Set<Kind>, sidecar: SidecarInput? = nil,
                        into result: inout PhotoResult) {
        if kinds.contains(.hash) { result.hashes = ContentHashes(of: bytes) }
        let decoding = kinds.subtracting([.hash])
        guard !decoding.isEmpty else { return }

        let format = ImageFormat(sniffing: bytes)
        let header: VipsImageRef
        do {
            header = try VipsImageRef.header(of: bytes)
        } catch {
            let failure = Self.classifyOpenFailure(path: path, size: bytes.count, format: format, cause: error.message)
            for kind in decoding { result.errors[kind] = failure }
            return
        }

        if decoding.contains(.metadata) {
            let head = Array(bytes.prefix(MediaFormat.headLength))
            if let media = MediaFormat(sniffing: head, fileExtension: (path as NSString).pathExtension)
                ?? format.flatMap({ MediaFormat(rawValue: $0.rawValue) }) {
                let exifBlob = media == .jpeg ? nil : header.blob("exif-data")
                result.metadata = MetadataReader.read(fileBytes: bytes, format: media,
                                                      vipsHeader: (header.width, header.height, exifBlob))
            } else {
                var metadata = PhotoMetadata()
                metadata.pixelWidth = header.width
                metadata.pixelHeight = header.height
                result.metadata = metadata
            }
        }
        result.mergeSidecar(sidecar)

        let pixels = header.width * header.height
        if pixels > parameters.pixelLimit {
            let failure = ProcessingError(.tooLarge, "\(path): \(header.width)×\(header.height) is \(pixels / 1_000_000) megapixels, over the limit of \(parameters.pixelLimit / 1_000_000)")
            for kind in decoding where kind.decodesPixels { result.errors[kind] = failure }
            return
        }

        if decoding.contains(.thumbnail) {
            do {
                result.thumbnail = try Thumbnailer.make(from: bytes, longestSide: parameters.thumbnailSize,
                                                        quality: parameters.thumbnailQuality)
            } catch {
                result.errors[.thumbnail] = ProcessingError(.corrupt, "\(path): image data is damaged: \(error.message)")
            }
        }

        if decoding.contains(.ocr) {
            do {
                result.text = try recognizeText(in: bytes, path: path)
            } catch {
                result.errors[.ocr] = error
            }
        }
    }

    private func recognizeText(in bytes: UnsafeRawBufferPointer, path: String) throws(ProcessingError) -> RecognizedText {
        let page: GreyImage
        do {
            let image = try VipsImageRef.thumbnail(of: bytes, size: parameters.ocrMaxSide).flattenedSRGB(grey: true)
            page = GreyImage(width: image.width, height: image.height, pixels: try image.pixels())
            Vips.clearError()
        } catch {
            throw ProcessingError(.corrupt, "\(path): image data is damaged: \(error.message)")
        }
        if recognizer == nil || recognizer?.language != parameters.ocrLanguage {
            recognizer = try TextRecognizer(language: parameters.ocrLanguage)
        }
        return recognizer!.recognize(page)
    }

    /// Why libvips could not even read the header.
    static func classifyOpenFailure(path: String, size: Int, format: ImageFormat?, cause: String) -> ProcessingError {
        if size == 0 { return ProcessingError(.notAnImage, "\(path): the file is empty") }
        guard let format else {
            return ProcessingError(.notAnImage, "\(path): not an image (no known image signature in the first bytes)")
        }
        if cause.contains("is not a known") || cause.contains("not a known file format") {
            return ProcessingError(.unsupportedFormat, "\(path): \(format.rawValue) image that this libvips cannot decode: \(cause)")
        }
        return ProcessingError(.corrupt, "\(path): \(format.rawValue) header is damaged: \(cause)")
    }

    static func modificationDate(of path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let date = attributes[.modificationDate] as? Date else { return nil }
        return ISO8601Format.utc(date)
    }
}

enum ISO8601Format {
    static func utc(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
    }
}
