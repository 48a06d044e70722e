import Foundation

/// What the scan makes of a file: media to process, an XMP sidecar that belongs to a
/// photo beside it, or something else (skipped, counted, never a failure).
public enum FileRecognition: Sendable, Hashable {
    case media(MediaFormat)
    case sidecar
    case other

    /// Reads the file's first bytes and tells what it is: 4 KiB, which settles every
    /// format but TIFF structures, whose first directory (and the Make it points to) may
    /// lie further in: for those, up to `MediaFormat.headLength`.
    /// Errors: the file cannot be opened or read (errno).
    public static func of(path: String) throws(FileStampError) -> FileRecognition {
        let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw FileStampError(code: errno) }
        defer { close(fd) }
        var head = try readHead(fd, length: 4096)
        let tiff = head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
        if tiff && head.count == 4096 { head = try readHead(fd, length: MediaFormat.headLength) }
        return of(head: head, fileExtension: (path as NSString).pathExtension)
    }

    private static func readHead(_ fd: Int32, length: Int) throws(FileStampError) -> [UInt8] {
        var head = [UInt8](repeating: 0, count: length)
        var filled = 0
        while filled < head.count {
            let got = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, $0.count - filled, off_t(filled)) }
            if got < 0 {
                if errno == EINTR { continue }
                throw FileStampError(code: errno)
            }
            if got == 0 { break }
            filled += got
        }
        head.removeSubrange(filled...)
        return head
    }

    public static func of(head: [UInt8], fileExtension: String) -> FileRecognition {
        if let format = MediaFormat(sniffing: head, fileExtension: fileExtension) { return .media(format) }
        if fileExtension.lowercased() == "xmp" && isXMP(head) { return .sidecar }
        return .other
    }

    /// An XMP packet (`<?xpacket`, `<x:xmpmeta`, or bare RDF) near the start of the file.
    static func isXMP(_ head: [UInt8]) -> Bool {
        let view = ByteView(Array(head.prefix(4096)))
        return ["<?xpacket", "<x:xmpmeta", "<rdf:RDF"].contains { view.contains($0, within: 4096) }
    }
}
