import Catalog
import Foundation
import PhotomillCore
import Logging

/// Walks the photo folders and records every file in the catalog, in batches, on a
/// thread of its own that starts with it. What a file is comes from its content
/// (`FileRecognition`), read only for files the catalog does not already know unchanged
/// (same path, size and mtime): a re-scan of an unchanged library reads no file. Media
/// become photos; XMP sidecars are attached to their photo; anything else is skipped
/// and counted.
final class Scanner: @unchecked Sendable {
    // @unchecked: `summary`, `finished`, `failure` and `stopping` are guarded by `lock`;
    // `thread` is set once, in `init`; the rest is immutable or used only by the
    // scanning thread.
    private let catalog: Catalog
    private let roots: [String]
    private let kinds: Set<Kind>
    private let logger: Logger
    private let lock = NSLock()
    private var _summary = ScanSummary()
    private var _finished = false
    private var _failure: CatalogError?
    private var stopping = false
    private var thread: OwnedThread<Void>?
    private let batchSize = 500

    init(catalog: Catalog, roots: [String], kinds: Set<Kind>, logger: Logger) {
        self.catalog = catalog
        self.roots = roots
        self.kinds = kinds
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

    /// A regular file the walk found, before anyone looked inside.
    private struct Found {
        var path: String
        var stamp: FileStamp
        var sidecar: Sidecar?
    }

    private func scan() throws(CatalogError) {
        var batch: [Found] = []
        for root in roots {
            let rootPath = URL(fileURLWithPath: root).standardizedFileURL.path
            try walk(rootPath) { (file) throws(CatalogError) in
                batch.append(file)
                if batch.count >= batchSize {
                    try record(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        try record(batch)
    }

    /// Recognises the files of a batch the catalog does not know unchanged, and records them all.
    private func record(_ batch: [Found]) throws(CatalogError) {
        guard !batch.isEmpty else { return }
        let known = try catalog.knownFiles(batch.map(\.path))
        var files: [ScannedFile] = []
        files.reserveCapacity(batch.count)
        for found in batch {
            let recognition: ScannedFile.Recognition
            if known.photos[found.path]?.isUnchanged(found.stamp, skipped: false) == true
                || known.skipped[found.path] == found.stamp {
                recognition = .unchanged
            } else {
                do {
                    switch try FileRecognition.of(path: found.path) {
                    case .media(let format): recognition = .media(format)
                    case .sidecar, .other: recognition = .other
                    }
                } catch {
                    try unreadable(found.path, reason: error.description)
                    continue
                }
            }
            files.append(ScannedFile(path: found.path, size: found.stamp.size, mtimeNs: found.stamp.mtimeNs,
                                     recognition: recognition, sidecar: found.sidecar))
        }
        let added = try catalog.record(files, kinds: kinds, now: WallClock.now())
        lock.withLock { _summary = _summary + added }
    }

    /// A file the scan cannot read is a photo it must report when its name says it is
    /// media (its tasks fail `unreadable`, with the reason); anything else is skipped.
    private func unreadable(_ path: String, reason: String) throws(CatalogError) {
        if MediaFormat.isMediaExtension((path as NSString).pathExtension) {
            try catalog.recordUnreadable(path: path, message: "\(path): \(reason)", kinds: kinds, now: WallClock.now())
        } else {
            logger.warning("cannot read a file, skipped", metadata: ["path": "\(path)", "error": "\(reason)"])
            lock.withLock { _summary.skipped += 1 }
        }
    }

    /// Depth-first, names sorted (so photo ids follow the folder order); hidden files and
    /// folders (names starting with ".") are skipped, and symbolic links are not followed.
    /// An XMP file that belongs to a file beside it is that file's sidecar, not a file of
    /// its own.
    private func walk(_ directory: String, found: (Found) throws(CatalogError) -> Void) throws(CatalogError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted().filter { !$0.hasPrefix(".") }
        } catch {
            logger.warning("cannot list a folder", metadata: ["folder": "\(directory)", "error": "\(error.localizedDescription)"])
            return
        }
        let sidecars = XMPSidecar.Index(names: names)
        for name in names {
            guard !isStopping else { return }
            let path = Self.join(directory, name)
            var info = stat()
            guard lstat(path, &info) == 0 else {
                try unreadable(path, reason: String(cString: strerror(errno)))
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                try walk(path, found: found)
            case S_IFREG:
                guard !sidecars.isSidecar(name) else { continue }
                let sidecar = sidecars.sidecar(of: name).flatMap { Self.sidecar(at: Self.join(directory, $0)) }
                try found(Found(path: path, stamp: FileStamp(info), sidecar: sidecar))
            default:
                continue
            }
        }
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory == "/" ? "/" + name : directory + "/" + name
    }

    /// The sidecar at `path` with its stamp, if it is a regular file.
    private static func sidecar(at path: String) -> Sidecar? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let stamp = FileStamp(info)
        return Sidecar(path: path, size: stamp.size, mtimeNs: stamp.mtimeNs)
    }
}
