import Foundation

/// What the scan makes of a file: media to process, an XMP sidecar that belongs to a
/// photo beside it, or something else (skipped, counted, never a failure).
public enum FileRecognition: Sendable, Hashable {
    case media(MediaFormat)
    case sidecar
    case other

    /// Reads the file's first bytes (`MediaFormat.headLength`) and tells what it is.
    /// Errors: the file cannot be opened or read (errno).
    public static func of(path: String) throws(FileStampError) -> FileRecognition {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileStampError(code: errno) }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: MediaFormat.headLength)
        var filled = 0
        while filled < head.count {
            let got = head.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if got < 0 {
                if errno == EINTR { continue }
                throw FileStampError(code: errno)
            }
            if got == 0 { break }
            filled += got
        }
        head.removeSubrange(filled...)
        return of(head: head, fileExtension: (path as NSString).pathExtension)
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

extension MediaFormat {
    /// The file-name extensions of the sidecars photomill reads for a photo `NAME.EXT`:
    /// `NAME.xmp` (Lightroom, Capture One) and `NAME.EXT.xmp` (darktable, digiKam).
    public static func sidecarNames(forPhotoNamed name: String) -> [String] {
        let stem = (name as NSString).deletingPathExtension
        return [name + ".xmp", name + ".XMP", stem + ".xmp", stem + ".XMP"]
    }
}
