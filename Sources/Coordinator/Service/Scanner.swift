import Catalog
import Foundation
import PhotomillCore
import Logging

/// Walks the photo folders and records every file in the catalog, in batches, on a
/// thread of its own that starts with it. What a file is comes from its content
/// (`FileRecognition`), read only for files the catalog does not already know unchanged
/// (same path, size and mtime): a re-scan of an unchanged library reads no file. Media
/// become photos; XMP sidecars are attached to their photo; anything else is skipped
/// and counted. A new file whose content is that of a photo that left its path is that
/// photo, moved (`Scanner+Moves.swift`). After a complete walk of a folder, the photos
/// under it that it did not find are marked missing.
final class Scanner: @unchecked Sendable {
    // @unchecked: `summary`, `finished`, `failure` and `stopping` are guarded by `lock`;
    // `thread` is set once, in `init`; the rest is immutable or used only by the
    // scanning thread.
    let catalog: Catalog
    private let roots: [String]
    private let kinds: Set<Kind>
    /// Paths never recorded (the catalog's own files, the exports folder).
    private let excluded: Set<String>
    let logger: Logger
    private let lock = NSLock()
    private var _summary = ScanSummary()
    private var _finished = false
    private var _failure: CatalogError?
    private var stopping = false
    private var thread: OwnedThread<Void>?
    private let batchSize = 500
    /// Photos of the catalog the walk found (or found moved), by id: the others are missing.
    var seen = PhotoIds()
    /// Photos a new file was found to be, in this scan (each moves once).
    var claimed: Set<Int64> = []
    /// Folders the walk could not list: what lies under them is not missing.
    private var unlisted: [String] = []

    init(catalog: Catalog, roots: [String], kinds: Set<Kind>, excluded: Set<String> = [], logger: Logger) {
        self.catalog = catalog
        self.roots = roots
        self.kinds = kinds
        self.excluded = excluded
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

    func add(_ summary: ScanSummary) { lock.withLock { _summary = _summary + summary } }

    /// A regular file the walk found, before anyone looked inside.
    private struct Found {
        var path: String
        var stamp: FileStamp
        var sidecar: Sidecar?
    }

    private func scan() throws(CatalogError) {
        let started = WallClock.now()
        let lastId = try catalog.lastPhotoId()
        var batch: [Found] = []
        let rootPaths = roots.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        for root in rootPaths {
            try walk(root) { (file) throws(CatalogError) in
                batch.append(file)
                if batch.count >= batchSize {
                    try record(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        try record(batch)
        // Only a walk that went to its end knows what is gone.
        guard !isStopping else { return }
        var summary = ScanSummary()
        for root in rootPaths {
            summary.missing += try catalog.markMissing(under: root, lastId: lastId, found: seen.contains, unlisted: unlisted,
                                                       now: WallClock.now())
            try catalog.clearUnreadableFolders(under: root, before: started)
        }
        if summary.missing > 0 {
            logger.notice("photos no longer found, marked missing (`photomill forget --missing` removes them)",
                          metadata: ["photos": "\(summary.missing)"])
        }
        add(summary)
    }

    /// Recognises the files of a batch the catalog does not know unchanged, and records them all.
    private func record(_ batch: [Found]) throws(CatalogError) {
        guard !batch.isEmpty else { return }
        let known = try catalog.knownFiles(batch.map(\.path))
        var files: [ScannedFile] = []
        files.reserveCapacity(batch.count)
        for found in batch {
            let photo = known.photos[found.path]
            if let photo { seen.insert(photo.id) }
            let recognition: ScannedFile.Recognition
            if photo?.isUnchanged(found.stamp, skipped: false) == true || known.skipped[found.path] == found.stamp {
                recognition = .unchanged
            } else {
                do {
                    switch try FileRecognition.of(path: found.path) {
                    case .media(let format): recognition = .media(format)
                    case .sidecar, .other: recognition = .other
                    }
                } catch {
                    try unreadable(found.path, reason: error.cause, gone: error.isGone)
                    continue
                }
            }
            files.append(ScannedFile(path: found.path, size: found.stamp.size, mtimeNs: found.stamp.mtimeNs,
                                     recognition: recognition, sidecar: found.sidecar))
        }
        try findMoves(&files, known: known)
        add(try catalog.record(files, kinds: kinds, now: WallClock.now()))
    }

    /// A file the scan cannot read is a failure (its tasks fail `unreadable`, with the
    /// reason), whatever its name: it may be a photo. One that vanished meanwhile is not.
    private func unreadable(_ path: String, reason: String, gone: Bool) throws(CatalogError) {
        guard !gone else { return }
        let id = try catalog.recordUnreadable(path: path, message: "\(path): cannot read: \(reason)", kinds: kinds,
                                              now: WallClock.now())
        seen.insert(id)
    }

    /// Depth-first, names sorted (so photo ids follow the folder order); hidden files and
    /// folders (names starting with "."), the excluded paths and folders tagged as caches
    /// (`CACHEDIR.TAG`: photomill's exports) are skipped, and symbolic links are not
    /// followed. An XMP file that belongs to a file beside it is that file's sidecar, not
    /// a file of its own. A folder that cannot be listed is a failure.
    private func walk(_ directory: String, found: (Found) throws(CatalogError) -> Void) throws(CatalogError) {
        let names: [String]
        switch PathBytes.names(inFolder: directory) {
        case .success(let all):
            names = all.sorted().filter { !$0.hasPrefix(".") }
        case .failure(let error):
            let reason = error.description
            unlisted.append(directory)
            logger.warning("cannot list a folder", metadata: ["folder": "\(directory)", "error": "\(reason)"])
            try catalog.recordUnreadableFolder(directory, message: "\(directory): cannot list the folder: \(reason)", now: WallClock.now())
            return
        }
        if names.contains(CacheDirectoryTag.name) && CacheDirectoryTag.isValid(in: directory) {
            logger.info("a cache folder (CACHEDIR.TAG), skipped", metadata: ["folder": "\(directory)"])
            return
        }
        let sidecars = XMPSidecar.Index(names: names)
        for name in names {
            guard !isStopping else { return }
            let path = Self.join(directory, name)
            guard !excluded.contains(path) else { continue }
            var info = stat()
            guard PathBytes.withCString(path, { lstat($0, &info) }) == 0 else {
                let code = errno
                try unreadable(path, reason: String(cString: strerror(code)), gone: code == ENOENT)
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
        guard PathBytes.withCString(path, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let stamp = FileStamp(info)
        return Sidecar(path: path, size: stamp.size, mtimeNs: stamp.mtimeNs)
    }
}

/// Photo ids as bits: a scan of a million photos remembers which it found in 125 KB.
struct PhotoIds {
    private var words: [UInt64] = []

    mutating func insert(_ id: Int64) {
        guard id >= 0 else { return }
        let word = Int(id >> 6)
        if word >= words.count { words += [UInt64](repeating: 0, count: word - words.count + 1) }
        words[word] |= 1 << UInt64(id & 63)
    }

    func contains(_ id: Int64) -> Bool {
        let word = Int(id >> 6)
        return id >= 0 && word < words.count && words[word] & (1 << UInt64(id & 63)) != 0
    }
}
