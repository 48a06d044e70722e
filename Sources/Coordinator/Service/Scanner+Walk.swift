//===----------------------------------------------------------------------===//
//
// This source file is part of the photomill open source project
//
// Copyright (c) 2026 the photomill authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Catalog
import Foundation
import Logging
import PhotomillCore

extension Scanner {
    /// A file the walk found, before anyone looked inside.
    struct Found {
        var path: String
        var stamp: FileStamp
        var ctimeNs: Int64
        var sidecar: Sidecar?
        /// Left out, and why (recorded as such, never read).
        var skip: (reason: SkipReason, detail: String?)?

        init(path: String, info: stat, sidecar: Sidecar? = nil, skip: (reason: SkipReason, detail: String?)? = nil) {
            self.path = path
            stamp = FileStamp(info)
            ctimeNs = Self.ctimeNs(info)
            self.sidecar = sidecar
            self.skip = skip
        }

        static func ctimeNs(_ info: stat) -> Int64 {
            Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        }
    }

    /// How a walk treats the folders it enters.
    enum WalkMode {
        /// Each folder gets an inotify watch before it is listed.
        case watch
        /// No watch: a batch `run`, or a network file system (polled on the schedule).
        case none
    }

    /// Every scanned folder, walked and reconciled: photos not found are missing, skipped
    /// files not found are forgotten, unreadable folders read again are cleared.
    func fullScan(_ reason: FullScanReason) throws(CatalogError) {
        let startedWall = WallClock.now()
        let started = MonotonicInstant.now()
        report.scanning = "a full scan (\(reason.rawValue))"
        writeReport(force: true)
        beginWalk(fresh: true)
        let lastId = try catalog.lastPhotoId()
        if reason != .start { watcher?.table?.forgetPolled(under: "/") }
        var passed: [Int64] = []
        for root in roots {
            var mode: WalkMode = watcher?.table == nil ? .none : .watch
            if let fileSystem = NetworkFileSystem.name(of: root) {
                noteNetwork(root, fileSystem: fileSystem)
                mode = .none
            }
            order = CatalogOrder(catalog: catalog, folder: root, lastId: lastId)
            defer { order = nil }
            try walk(root, mode: mode, parentDevice: nil, inOrder: true)
            guard !isStopping else { break }
            try order?.finish()
            passed += order?.passed ?? []
        }
        try flush()
        let walked = MonotonicInstant.now() - started
        report.scanning = nil
        // Only a walk that went to its end knows what is gone.
        guard !isStopping else { return }
        var summary = ScanSummary()
        if unlisted.isEmpty {
            // The photos the walk passed and found nowhere else: one pass over the catalog, beside the walk.
            summary.missing = try catalog.markMissing(
                Array(Set(passed.filter { !seen.contains($0) })).sorted(),
                now: WallClock.now()
            )
        }
        for root in roots {
            if !unlisted.isEmpty {
                // What lies under a folder that could not be listed is not missing.
                summary.missing += try catalog.markMissing(
                    under: root,
                    lastId: lastId,
                    found: seen.contains,
                    unlisted: unlisted,
                    now: WallClock.now()
                )
            }
            try catalog.clearUnreadableFolders(under: root, before: startedWall)
            try catalog.forgetSkipped(under: root, found: seenSkipped)
        }
        // At start, tasks for kinds asked for that photos never had (`--kinds` grew), unless none lacks one.
        if reason == .start, try !catalog.hasEveryTask(of: kinds) {
            for root in roots {
                summary.queuedTasks += try catalog.ensureTasks(under: root, kinds: kinds, now: WallClock.now())
            }
        }
        if summary.missing > 0 {
            logger.notice(
                "photos no longer found, marked missing (`photomill forget --missing` removes them)",
                metadata: ["photos": "\(summary.missing)"]
            )
        }
        add(summary)
        report.lastFullScan = LibraryWatch.FullScan(
            startedAt: startedWall,
            seconds: MonotonicInstant.now() - started,
            reason: reason.rawValue
        )
        report.nextFullScan = MonotonicInstant.now() + library.rescanInterval
        report.nextFullScanAt = WallClock.now() + library.rescanInterval
        noteWatchLimit()
        logger.info(
            "full scan done",
            metadata: [
                "reason": "\(reason.rawValue)",
                "seconds": "\(String(format: "%.2f", MonotonicInstant.now() - started))",
                "walk.seconds": "\(String(format: "%.2f", walked))",
                "scan.new": "\(round.added)", "scan.changed": "\(round.changed)", "scan.missing": "\(round.missing)",
            ]
        )
    }

    /// A folder and what lies under it walked again (new, moved in, its rules changed, or
    /// asked for), and reconciled like a full scan's folders.
    func walkSubtree(_ folder: String, fresh: Bool = true) throws(CatalogError) {
        let startedWall = WallClock.now()
        beginWalk(fresh: fresh)
        let lastId = try catalog.lastPhotoId()
        let mode: WalkMode =
            watcher?.table == nil || networkNoted.contains(where: folder.isPath(under:)) ? .none : .watch
        try walk(folder, mode: mode, parentDevice: nil)
        try flush()
        guard !isStopping else { return }
        var summary = ScanSummary()
        summary.missing = try catalog.markMissing(
            under: folder,
            lastId: lastId,
            found: seen.contains,
            unlisted: unlisted,
            now: WallClock.now()
        )
        try catalog.clearUnreadableFolders(under: folder, before: startedWall)
        try catalog.forgetSkipped(under: folder, found: seenSkipped)
        add(summary)
    }

    func beginWalk(fresh: Bool) {
        seen = PhotoIds()
        claimed = []
        unlisted = []
        seenSkipped = []
        visited = []
        linkedFiles = []
        freshAfterNs = fresh ? Int64((WallClock.now() - library.settle) * 1e9) : nil
    }

    /// Depth-first, in the order of the paths' bytes (`entries(ofFolder:)`; so photo ids follow
    /// the folder order): each folder is watched (when watching) before it is listed, its
    /// `.photomillignore` read, and each entry visited. A folder tagged as a cache
    /// (`CACHEDIR.TAG`: photomill's exports) is skipped. A folder that cannot be listed is
    /// a failure. `inOrder`: the walk goes in path order from a scanned folder (not through
    /// a link), and compares each file with the catalog's row beside it (`order`).
    func walk(_ directory: String, mode: WalkMode, parentDevice: UInt64?, inOrder: Bool = false) throws(CatalogError) {
        guard !isStopping else { return }
        var info = stat()
        guard PathBytes.withCString(directory, { lstat($0, &info) }) == 0 else { return }
        guard visited.insert(FolderIdentity(info)).inserted else { return }
        var mode = mode
        if mode == .watch, let parentDevice, UInt64(info.st_dev) != parentDevice,
            let fileSystem = NetworkFileSystem.name(of: directory)
        {
            // A network share mounted inside a local folder: polled, not watched.
            noteNetwork(directory, fileSystem: fileSystem)
            mode = .none
        }
        if mode == .watch, let table = watcher?.table, case .refused(let cause) = table.watch(directory) {
            logger.warning(
                "cannot watch a folder: it is polled on the rescan schedule instead",
                metadata: ["folder": "\(directory)", "error": "\(cause)"]
            )
        }
        let entries: [FolderEntry]
        switch Self.entries(ofFolder: directory) {
        case .success(let all):
            entries = all
        case .failure(let error):
            let reason = error.description
            unlisted.append(directory)
            logger.warning("cannot list a folder", metadata: ["folder": "\(directory)", "error": "\(reason)"])
            try catalog.recordUnreadableFolder(
                directory,
                message: "\(directory): cannot list the folder: \(reason)",
                now: WallClock.now()
            )
            return
        }
        let names = entries.map(\.name)
        readIgnoreFile(in: directory, present: names.contains(Exclusions.fileName))
        if names.contains(CacheDirectoryTag.name) && CacheDirectoryTag.isValid(in: directory) {
            logger.info("a cache folder (CACHEDIR.TAG), skipped", metadata: ["folder": "\(directory)"])
            try skip(Found(path: directory, info: info, skip: (.cacheFolder, nil)))
            return
        }
        let sidecars = XMPSidecar.Index(names: names)
        // The rules of this folder and those above it, all read by now: taken once.
        let rules = exclusions.current
        for entry in entries {
            guard !isStopping else { return }
            try visit(
                entry.name,
                in: directory,
                info: entry.info,
                rules: rules,
                sidecars: sidecars,
                mode: mode,
                device: UInt64(info.st_dev),
                inOrder: inOrder
            )
        }
    }

    /// One entry of a folder (with its lstat(2) when the listing took it): a folder is
    /// walked, a file found, a link followed when it stays under a scanned folder, anything
    /// else skipped with its reason (never opened). In a walk in path order, a file the
    /// catalog knows unchanged (its row beside it in `order`) is only counted.
    func visit(
        _ name: String,
        in directory: String,
        info listed: Result<stat, FileStampError>? = nil,
        rules: Exclusions? = nil,
        sidecars: XMPSidecar.Index,
        mode: WalkMode,
        device: UInt64?,
        inOrder: Bool = false
    ) throws(CatalogError) {
        let path = Self.join(directory, name)
        var info = stat()
        switch listed ?? Self.info(at: path) {
        case .success(let found):
            info = found
        case .failure(let error):
            try unreadable(path, reason: error.description, gone: error.code == ENOENT)
            return
        }
        if exclusions.ownFiles.contains(path) {
            return try skip(Found(path: path, info: info, skip: (.photomillFile, nil)))
        }
        if name.hasPrefix(".") {
            guard name != Exclusions.fileName else { return }
            return try skip(Found(path: path, info: info, skip: (.hidden, nil)))
        }
        let type = info.st_mode & S_IFMT
        // `rules`: those in force in the folder, taken once for its entries; not given, the current ones.
        if let rule = (rules ?? exclusions.current).rule(for: path, isFolder: type == S_IFDIR) {
            excludedBatch.append((path, rule.description, type == S_IFDIR))
            seenSkipped.insert(path)
            return
        }
        switch type {
        case S_IFDIR:
            try walk(path, mode: mode, parentDevice: device, inOrder: inOrder)
        case S_IFREG:
            guard !sidecars.isSidecar(name) else { return }
            let sidecar = sidecars.sidecar(of: name).flatMap { Self.sidecar(at: Self.join(directory, $0)) }
            if inOrder, order != nil, case .photo(let photo) = try order!.photo(at: path),
                !unsettledPaths.contains(path),
                photo.isClean(FileStamp(info), ctimeNs: Found.ctimeNs(info), sidecar: sidecar)
            {
                // What `flush` would find for it: nothing to write.
                seen.insert(photo.id)
                unchangedInOrder += 1
                return
            }
            try found(Found(path: path, info: info, sidecar: sidecar))
        case S_IFLNK:
            try follow(path, in: directory, info: info, mode: mode)
        case S_IFIFO:
            try skip(Found(path: path, info: info, skip: (.fifo, nil)))
        case S_IFSOCK:
            try skip(Found(path: path, info: info, skip: (.socket, nil)))
        default:
            try skip(Found(path: path, info: info, skip: (.device, nil)))
        }
    }

    /// A symbolic link: one that stays under a scanned folder is followed — a folder is
    /// walked (once, whatever the number of ways to it; a link to a folder above it is a
    /// loop, skipped), a file is catalogued under its own path (once: the walk meets it
    /// there too, unless it lies in a hidden folder). Others are skipped with the reason.
    private func follow(_ path: String, in directory: String, info: stat, mode: WalkMode) throws(CatalogError) {
        guard let target = Self.realPath(path) else {
            return try skip(Found(path: path, info: info, skip: (.linkBroken, Self.linkText(path))))
        }
        guard let mapped = pathUnderRoots(real: target) else {
            return try skip(Found(path: path, info: info, skip: (.linkOutside, PathBytes.display(target))))
        }
        var targetInfo = stat()
        guard PathBytes.withCString(mapped, { stat($0, &targetInfo) }) == 0 else {
            return try skip(Found(path: path, info: info, skip: (.linkBroken, Self.linkText(path))))
        }
        let isFolder = targetInfo.st_mode & S_IFMT == S_IFDIR
        if let rule = exclusions.current.excludingRule(for: mapped, isFolder: isFolder) {
            return try skip(Found(path: path, info: info, skip: (.excluded, rule.description)))
        }
        if isFolder {
            if directory.isPath(under: mapped) {
                return try skip(Found(path: path, info: info, skip: (.linkLoop, PathBytes.display(mapped))))
            }
            try walk(mapped, mode: mode, parentDevice: nil)
        } else if targetInfo.st_mode & S_IFMT == S_IFREG {
            let root = exclusions.current.root(of: mapped) ?? "/"
            let hidden = mapped.dropFirst(root.count).split(separator: "/").contains { $0.hasPrefix(".") }
            guard hidden, linkedFiles.insert(mapped).inserted else { return }
            let sidecar = XMPSidecar.find(besidePhotoAt: mapped).flatMap(Self.sidecar(at:))
            try found(Found(path: mapped, info: targetInfo, sidecar: sidecar))
        } else {
            try skip(Found(path: path, info: info, skip: (.notMedia, PathBytes.display(mapped))))
        }
    }

    /// The path under a scanned folder (as given) of a resolved path; nil outside them all.
    func pathUnderRoots(real: String) -> String? {
        guard
            let (given, resolved) = realRoots.filter({ real.isPath(under: $0.real) }).max(by: {
                $0.real.count < $1.real.count
            })
        else { return nil }
        return real == resolved ? given : given + real.dropFirst(resolved == "/" ? 0 : resolved.count)
    }

    /// A folder's `.photomillignore`, read again: its patterns in force from now on. A
    /// file larger than 1 MiB or not a regular file is no rule file (a warning says so).
    func readIgnoreFile(in directory: String, present: Bool) {
        var text: String?
        if present {
            let path = Self.join(directory, Exclusions.fileName)
            var info = stat()
            if PathBytes.withCString(path, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG,
                info.st_size <= 1 << 20,
                let data = try? RegularFile.contents(of: path, upTo: 1 << 20)
            {
                text = String(decoding: data, as: UTF8.self)
            } else {
                logger.warning(
                    "a .photomillignore that is not a regular file of at most 1 MiB: not read",
                    metadata: ["file": "\(path)"]
                )
            }
        }
        exclusions.update { $0.setFile(in: directory, text: text) }
    }

    private func found(_ file: Found) throws(CatalogError) {
        batch.append(file)
        if batch.count >= batchSize { try flush() }
    }

    func skip(_ file: Found) throws(CatalogError) {
        seenSkipped.insert(file.path)
        try found(file)
    }

    /// A file the scan cannot read is a failure (its tasks fail `unreadable`, with the
    /// reason), whatever its name: it may be a photo. One that vanished meanwhile is not.
    func unreadable(_ path: String, reason: String, gone: Bool) throws(CatalogError) {
        guard !gone else { return }
        let id = try catalog.recordUnreadable(
            path: path,
            message: "\(path): cannot read: \(reason)",
            kinds: kinds,
            now: WallClock.now()
        )
        seen.insert(id)
    }

    private func noteNetwork(_ folder: String, fileSystem: String) {
        watcher?.table?.poll(folder, fileSystem: fileSystem)
        guard networkNoted.insert(folder).inserted else { return }
        logger.warning(
            """
            a folder on a network file system: inotify sees only what this host changes, so it is polled on the \
            rescan schedule instead of watched (--rescan-interval; `photomill scan` looks at once)
            """,
            metadata: [
                "folder": "\(folder)", "file.system": "\(fileSystem)",
                "rescan.interval.seconds": "\(Int(library.rescanInterval))",
            ]
        )
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory == "/" ? "/" + name : directory + "/" + name
    }

    /// lstat(2) of `path`.
    static func info(at path: String) -> Result<stat, FileStampError> {
        var info = stat()
        return PathBytes.withCString(path, { lstat($0, &info) }) == 0
            ? .success(info) : .failure(FileStampError(code: errno))
    }

    /// The sidecar at `path` with its stamp, if it is a regular file.
    static func sidecar(at path: String) -> Sidecar? {
        var info = stat()
        guard PathBytes.withCString(path, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return nil
        }
        let stamp = FileStamp(info)
        return Sidecar(path: path, size: stamp.size, mtimeNs: stamp.mtimeNs)
    }

    /// realpath(3): every link resolved; nil when something on the way is missing.
    static func realPath(_ path: String) -> String? {
        guard let pointer = PathBytes.withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(pointer) }
        return PathBytes.string(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
    }

    /// What a link says (readlink(2)), for people.
    static func linkText(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = PathBytes.withCString(path) { readlink($0, &buffer, buffer.count) }
        return count > 0 ? PathBytes.display(PathBytes.string(buffer[0..<count])) : nil
    }
}
