#if canImport(Glibc)
import Glibc
import PhotomillCore
#endif

/// A file read piece by piece (`pread`), for work that needs a few regions of a large file:
/// a camera RAW's embedded preview is a few hundred kilobytes of a file of 30–100 MB, and
/// reading the whole file (which `Data(contentsOf:)` does on Linux) costs as much as
/// decoding the preview. Reads, not a mapping: a mapped file truncated under a worker would
/// kill it with SIGBUS; a read of a shrunken file comes back short and fails cleanly.
final class FileRegions {
    let count: Int
    /// Bytes read so far (what the partial reads save, for tests to check).
    private(set) var bytesRead = 0
    private let descriptor: Int32

    /// Nil when the file cannot be opened or is not a regular file; the caller then reads
    /// it whole, which reports why.
    init?(path: String) {
        let descriptor = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        count = Int(status.st_size)
    }

    deinit { close(descriptor) }

    /// The bytes of `range`, or nil when the file no longer holds them all.
    func read(_ range: Range<Int>) -> [UInt8]? {
        guard range.lowerBound >= 0, range.upperBound <= count else { return nil }
        guard !range.isEmpty else { return [] }
        var bytes = [UInt8](repeating: 0, count: range.count)
        var done = 0
        while done < range.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, range.count - done, off_t(range.lowerBound + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            done += got
        }
        bytesRead += done
        return bytes
    }
}
