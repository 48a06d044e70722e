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

/// Keeps the catalog's picture of the photo folders true to the disk, on a thread of its
/// own (`pm-scanner`). It walks every folder at start (watching each as it goes, when it
/// watches), then does what it is handed: changes the watcher saw and settled, renames,
/// full rescans (on its schedule, after an overflow, when an operator asks through the
/// catalog), each recorded in batches. What a file is comes from its content
/// (`FileRecognition`), read only for files the catalog does not already know unchanged
/// (same path, size, mtime and change time): a rescan of an unchanged library reads no
/// file and writes nothing. Media become photos; XMP sidecars are attached to their photo;
/// a file named as media but empty or not media fails by name; anything else left out is
/// listed with its reason (`SkipReason`). A new file whose content is that of a photo that
/// left its path is that photo, moved (`Scanner+Moves.swift`). After a complete walk of a
/// folder, the photos under it that it did not find are marked missing.
final class Scanner: @unchecked Sendable {
    // @unchecked: the fields under "guarded" are guarded by `condition`; `watcher` and the
    // callbacks are set before `start()`; the rest is immutable or used only by the
    // scanning thread.
    let catalog: Catalog
    let roots: [String]
    let kinds: Set<Kind>
    let library: LibraryConfiguration
    let exclusions: ExclusionIndex
    let logger: Logger
    /// Signalled when a scan queued tasks: the coordinator's loop polls it.
    let wake: WakePipe
    /// Called (on the scanner's thread) after scan work that changed what the exports
    /// show: the photos that moved (their plists name a Live Photo's other half), and the
    /// manifest (photos gone, excluded, changed).
    var onLibraryChanged: (@Sendable ([Int64]) -> Void)?
    private(set) var watcher: Watcher?
    let batchSize = 500

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var _summary = ScanSummary()
    private var _finished = false
    private var _failure: CatalogError?
    private var stopping = false
    private var queue: [ScanWork] = []
    private var busy = true
    private var thread: OwnedThread<Void>?

    // The scanning thread's.
    /// Photos of the catalog the walk found (or found moved), by id: the others are missing.
    var seen = PhotoIds()
    /// Photos a new file was found to be, in this scan (each moves once).
    var claimed: Set<Int64> = []
    /// Folders the walk could not list: what lies under them is not missing.
    var unlisted: [String] = []
    /// Skipped paths the walk met: the others listed under its folders are gone.
    var seenSkipped: Set<String> = []
    /// Folders walked, by device and inode: a link or a mount seen twice is walked once.
    var visited: Set<FolderIdentity> = []
    /// Files a link led to, recorded once each.
    var linkedFiles: Set<String> = []
    /// A file renamed within the watched folders: its new path → the photo it was.
    var moveHints: [String: Int64] = [:]
    /// Files whose change time is after this (ns since the epoch) may still be being
    /// written: they settle first. Nil for files the watcher settled.
    var freshAfterNs: Int64?
    /// Files handed over still changing after the settle bound.
    var unsettledPaths: Set<String> = []
    var batch: [Found] = []
    /// The catalog's photos beside the walk in path order of the scanned folder being walked.
    var order: CatalogOrder?
    /// Files the walk in order found unchanged, not yet counted.
    var unchangedInOrder = 0
    var excludedBatch: [(path: String, rule: String, isFolder: Bool)] = []
    /// The scan work under way's own summary (a `photomill scan` request's answer).
    var round = ScanSummary()
    var changedPhotos: [Int64] = []
    var libraryChanged = false
    /// Network roots and mounts already reported.
    var networkNoted: Set<String> = []
    let realRoots: [(given: String, real: String)]
    var report = ReportState()

    init(catalog: Catalog, configuration: CoordinatorConfiguration, logger: Logger) throws {
        self.catalog = catalog
        roots = configuration.roots.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        kinds = configuration.kinds
        library = configuration.library
        self.logger = logger
        exclusions = ExclusionIndex(
            Exclusions(roots: roots, commandLine: configuration.library.exclude),
            ownFiles: configuration.excludedPaths
        )
        realRoots = roots.map { ($0, Self.realPath($0) ?? $0) }
        wake = try WakePipe()
        var table: WatchTable?
        if library.watch {
            do {
                table = WatchTable(inotify: try Inotify(), limit: library.watchLimit)
            } catch {
                logger.error(
                    "cannot watch the folders: every folder is polled on the rescan schedule instead",
                    metadata: ["error": "\(error)", "rescan.interval.seconds": "\(library.rescanInterval)"]
                )
            }
        }
        watcher = try Watcher(
            roots: roots,
            table: table,
            settle: .init(window: library.settle),
            exclusions: exclusions,
            logger: logger
        ) { [weak self] work in self?.submit(work) }
    }

    /// Starts the first full scan, then the work handed in.
    func start() {
        thread = OwnedThread(name: "pm-scanner") { [self] in run() }
    }

    var summary: ScanSummary { condition.withLock { _summary } }
    /// The first scan is done, nothing is queued or under way, and no file waits to settle:
    /// what `run` (a batch command) waits for.
    var finished: Bool {
        // Settling first: a file the watcher hands over after this read is in the queue by the next.
        (watcher?.settling ?? 0) == 0 && condition.withLock { _finished && !busy && queue.isEmpty }
    }
    var failure: CatalogError? { condition.withLock { _failure } }

    /// Scan work for the scanning thread; any thread.
    func submit(_ work: [ScanWork]) {
        guard !work.isEmpty else { return }
        condition.withLock {
            queue += work
            condition.signal()
        }
    }

    /// Ends the walk at the next file (what was recorded stays) and waits for the threads.
    func stop() {
        condition.withLock {
            stopping = true
            condition.signal()
        }
        thread?.join()
        watcher?.stop()
    }

    var isStopping: Bool { condition.withLock { stopping } }

    func add(_ summary: ScanSummary) {
        round = round + summary
        condition.withLock { _summary = _summary + summary }
        if summary.queuedTasks > 0 { wake.signal() }
        if summary.missing + summary.excluded + summary.moved + summary.changed + summary.failed > 0 {
            libraryChanged = true
        }
    }

    private func run() {
        do throws(CatalogError) {
            try fullScan(.start)
            finishWork()
            condition.withLock { _finished = true }
            while let work = next() {
                try perform(work)
                finishWork()
            }
        } catch {
            condition.withLock { _failure = error }
            logger.error("scan stopped", metadata: ["error": "\(error)"])
        }
        condition.withLock { busy = false }
    }

    /// The next work: what was handed in, a scheduled full scan when due; an empty list
    /// when it is time to look for requests in the catalog; nil when stopping.
    private func next() -> [ScanWork]? {
        condition.withLock {
            busy = false
            while true {
                if stopping { return nil }
                let now = MonotonicInstant.now()
                if !queue.isEmpty {
                    busy = true
                    defer { queue.removeAll() }
                    return queue
                }
                if now >= report.nextFullScan {
                    busy = true
                    return [.full(.schedule)]
                }
                if now >= report.nextRequestLook { return [] }
                let until = min(report.nextFullScan, report.nextRequestLook)
                _ = condition.wait(until: Date(timeIntervalSinceNow: until - now))
            }
        }
    }

    /// Renames first (they keep results without reading a file), then the paths, then one
    /// full scan if any was asked for; and the rescans operators asked for, each answered.
    private func perform(_ work: [ScanWork]) throws(CatalogError) {
        round = ScanSummary()
        for case .move(let from, let to, let isFolder) in work { try move(from: from, to: to, isFolder: isFolder) }
        let paths = work.flatMap { item -> [String] in if case .paths(let paths) = item { paths } else { [] } }
        let unsettled = work.flatMap { item -> [String] in if case .unsettled(let paths) = item { paths } else { [] } }
        if !paths.isEmpty || !unsettled.isEmpty { try scan(paths: paths + unsettled, unsettled: Set(unsettled)) }
        if let reason = work.lazy.compactMap({ item -> FullScanReason? in
            if case .full(let reason) = item { reason } else { nil }
        }).first {
            try fullScan(reason)
        }
        if MonotonicInstant.now() >= report.nextRequestLook { try answerRequests() }
    }

    /// Rescans asked for through the catalog, done now and answered there.
    private func answerRequests() throws(CatalogError) {
        report.nextRequestLook = MonotonicInstant.now() + 0.5
        let requests = try catalog.waitingScanRequests()
        guard !requests.isEmpty else { return }
        try catalog.startScanRequests(requests.map(\.id), now: WallClock.now())
        logger.info("rescan asked for", metadata: ["requests": "\(requests.count)", "origin": "\(requests[0].origin)"])
        let before = round
        round = ScanSummary()
        if requests.contains(where: { $0.paths == nil }) {
            try fullScan(.request)
        } else {
            try scan(
                paths: requests.flatMap { $0.paths ?? [] }.map { URL(fileURLWithPath: $0).standardizedFileURL.path },
                unsettled: []
            )
        }
        try catalog.finishScanRequests(requests.map(\.id), summary: round, now: WallClock.now())
        round = before + round
    }

    /// After each piece of work: the exports told, the report written when it changed.
    private func finishWork() {
        if libraryChanged || !changedPhotos.isEmpty {
            onLibraryChanged?(changedPhotos)
            libraryChanged = false
            changedPhotos.removeAll()
        }
        writeReport()
    }
}

/// A folder by device and inode: the same folder reached twice (a link, a bind mount).
struct FolderIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
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
