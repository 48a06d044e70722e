import Catalog
import Foundation
import PhotomillCore
import Logging

/// Walks the photo folders and records every candidate in the catalog, in batches, on a
/// thread of its own that starts with it. Unchanged files (same path, size and mtime)
/// create no work.
final class Scanner: @unchecked Sendable {
    // @unchecked: `summary`, `finished`, `failure` and `stopping` are guarded by `lock`;
    // `thread` is set once, in `init`; the rest is immutable or used only by the
    // scanning thread.
    private let catalog: Catalog
    private let roots: [String]
    private let kinds: Set<Kind>
    private let isCandidate: @Sendable (String) -> Bool
    private let logger: Logger
    private let lock = NSLock()
    private var _summary = ScanSummary()
    private var _finished = false
    private var _failure: CatalogError?
    private var stopping = false
    private var thread: OwnedThread<Void>?
    private let batchSize = 500

    init(catalog: Catalog, roots: [String], kinds: Set<Kind>, isCandidate: @escaping @Sendable (String) -> Bool,
         logger: Logger) {
        self.catalog = catalog
        self.roots = roots
        self.kinds = kinds
        self.isCandidate = isCandidate
        self.logger = logger
        thread = OwnedThread(name: "pm-scanner") { [self] in
            do throws(CatalogError) {
                try scan()
            } catch {
                lock.withLock { _failure = error }
                logger.error("scan stopped", metadata: ["error": "\(error)"])
            }
            lock.withLock { _finished = true }
        }
    }

    var summary: ScanSummary { lock.withLock { _summary } }
    var finished: Bool { lock.withLock { _finished } }
    var failure: CatalogError? { lock.withLock { _failure } }

    /// Ends the walk at the next file (what was recorded stays) and waits for the thread.
    func stop() {
        lock.withLock { stopping = true }
        thread?.join()
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    private func scan() throws(CatalogError) {
        var batch: [ScannedFile] = []
        for root in roots {
            let rootPath = URL(fileURLWithPath: root).standardizedFileURL.path
            try walk(rootPath) { (file) throws(CatalogError) in
                batch.append(file)
                if batch.count >= batchSize {
                    try record(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            } unreadable: { (path, reason) throws(CatalogError) in
                try catalog.recordUnreadable(path: path, message: "\(path): \(reason)", kinds: kinds, now: WallClock.now())
            }
        }
        try record(batch)
    }

    private func record(_ batch: [ScannedFile]) throws(CatalogError) {
        guard !batch.isEmpty else { return }
        let added = try catalog.record(batch, kinds: kinds, now: WallClock.now())
        lock.withLock { _summary = _summary + added }
    }

    /// Depth-first, names sorted (so photo ids follow the folder order); hidden files and
    /// folders (names starting with ".") are skipped, and symbolic links are not followed.
    private func walk(_ directory: String, found: (ScannedFile) throws(CatalogError) -> Void,
                      unreadable: (String, String) throws(CatalogError) -> Void) throws(CatalogError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            logger.warning("cannot list a folder", metadata: ["folder": "\(directory)", "error": "\(error.localizedDescription)"])
            return
        }
        for name in names where !name.hasPrefix(".") {
            guard !isStopping else { return }
            let path = directory == "/" ? "/" + name : directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else {
                if isCandidate(path) { try unreadable(path, String(cString: strerror(errno))) }
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                try walk(path, found: found, unreadable: unreadable)
            case S_IFREG:
                guard isCandidate(path) else { continue }
                let stamp = FileStamp(info)
                try found(ScannedFile(path: path, size: stamp.size, mtimeNs: stamp.mtimeNs))
            default:
                continue
            }
        }
    }
}
