/// An image container recognised from a file's leading bytes, before any decoder runs.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, tiff, webp, heif, bmp

    /// The file-name extensions that suggest an image (lower case).
    public static let extensions: Set<String> = [
        "jpg", "jpeg", "jpe", "png", "gif", "tif", "tiff", "webp", "heic", "heif", "hif", "avif", "bmp",
    ]

    /// Recognises the format from at most the first 16 bytes.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let b = Array(bytes.prefix(16))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + prefix.count && Array(b[offset..<offset + prefix.count]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { self = .jpeg }
        else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png }
        else if starts(Array("GIF8".utf8)) { self = .gif }
        else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { self = .tiff }
        else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { self = .webp }
        else if starts(Array("ftyp".utf8), at: 4) { self = .heif }
        else if starts(Array("BM".utf8)) { self = .bmp }
        else { return nil }
    }
}
