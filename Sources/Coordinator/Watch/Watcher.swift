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

import Foundation
import Logging
import PhotomillCore

/// The watcher: inotify's events read on a thread of its own (`pm-watcher`), beside the
/// scanner and never in the scheduler's loop. It turns them into changes
/// (`ChangeInterpreter`), lets files settle (`SettleMachine`), and hands the scanner what
/// is due in batches: settled files, paths gone or new, renames, a full scan after an
/// overflow. Without watching (`run` as a batch command) it only settles the files a scan
/// found still changing. The loop sleeps in poll(2) until an event, a file to settle, or
/// the next look is due: an idle library costs nothing.
final class Watcher: @unchecked Sendable {
    // @unchecked: `inbox` and `stopping` are guarded by `lock`, `settlingCount` too; the
    // machines belong to the thread; `table` is itself thread-safe.
    let table: WatchTable?
    private let logger: Logger
    private let exclusions: ExclusionIndex
    private let deliver: @Sendable ([ScanWork]) -> Void
    private let wake: WakePipe
    private let lock = NSLock()
    private var inbox: [String] = []
    private var stopping = false
    private var settlingCount = 0
    private var settle: SettleMachine
    private var interpreter: ChangeInterpreter
    private var thread: OwnedThread<Void>?

    /// `table`: the folders to watch (nil: only settle). `deliver` is called on the
    /// watcher's thread with each batch.
    init(
        roots: [String],
        table: WatchTable?,
        settle: SettleMachine.Configuration,
        exclusions: ExclusionIndex,
        logger: Logger,
        deliver: @escaping @Sendable ([ScanWork]) -> Void
    ) throws {
        self.table = table
        self.logger = logger
        self.exclusions = exclusions
        self.deliver = deliver
        wake = try WakePipe()
        self.settle = SettleMachine(configuration: settle)
        interpreter = ChangeInterpreter(roots: Set(roots)) { [exclusions] path, isFolder in
            exclusions.ignores(path, isFolder: isFolder)
        }
        thread = OwnedThread(name: "pm-watcher") { [self] in loop() }
    }

    /// Files a scan found still changing: settled here, then handed back. Any thread.
    func track(_ paths: [String]) {
        guard !paths.isEmpty else { return }
        lock.withLock { inbox += paths }
        wake.signal()
    }

    /// Files waiting to settle (with those handed in and not yet taken).
    var settling: Int { lock.withLock { settlingCount + inbox.count } }

    func stop() {
        lock.withLock { stopping = true }
        wake.signal()
        thread?.join()
    }

    private func loop() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
        defer { buffer.deallocate() }
        var descriptors = [pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)]
        if let table { descriptors.append(pollfd(fd: table.inotify.descriptor, events: Int16(POLLIN), revents: 0)) }
        while true {
            let deadline = [settle.nextDeadline, interpreter.nextDeadline].compactMap { $0 }.min()
            let timeout =
                deadline.map { max(0, Int32(min(60_000, (($0 - MonotonicInstant.now()) * 1000).rounded(.up)))) } ?? -1
            for index in descriptors.indices { descriptors[index].revents = 0 }
            _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
            wake.drain()
            let (tracked, stop) = lock.withLock { () -> ([String], Bool) in
                // Counted as settling from here on, so that `settling` never reads 0 while they are in hand.
                settlingCount += inbox.count
                defer { inbox.removeAll() }
                return (inbox, stopping)
            }
            if stop { return }
            var work: [ScanWork] = []
            var now = MonotonicInstant.now()
            for path in tracked { record(settle.changed(path, .touched, at: now), into: &work) }
            if let table {
                // Read what is queued, a bounded number of reads a turn so that looks stay due.
                for _ in 0..<64 {
                    let events = table.inotify.read(into: buffer)
                    if events.isEmpty { break }
                    now = MonotonicInstant.now()
                    for raw in events { handle(raw, table: table, at: now, into: &work) }
                }
            }
            now = MonotonicInstant.now()
            perform(interpreter.tick(at: now), at: now, into: &work)
            for action in settle.tick(at: now) {
                guard case .look(let paths) = action else {
                    record([action], into: &work)
                    continue
                }
                for path in paths {
                    var info = stat()
                    let found = PathBytes.withCString(path) { lstat($0, &info) } == 0
                    record(
                        settle.observed(path, found ? SettleStamp(info) : nil, at: MonotonicInstant.now()),
                        into: &work
                    )
                }
            }
            // Handed over before the count drops: `run` never sees nothing settling and nothing queued in between.
            if !work.isEmpty { deliver(Self.merged(work)) }
            lock.withLock { settlingCount = settle.count }
        }
    }

    private func handle(_ raw: Inotify.Raw, table: WatchTable, at now: MonotonicInstant, into work: inout [ScanWork]) {
        if raw.mask.contains(.overflow) {
            logger.warning(
                "the kernel's event queue overflowed: changes were lost, scanning everything (raise fs.inotify.max_queued_events to make this rarer)"
            )
            perform(interpreter.handle(WatchEvent(folder: "", name: "", mask: raw.mask), at: now), at: now, into: &work)
            return
        }
        guard let folder = table.folder(of: raw.watch) else { return }
        if raw.mask.contains(.ignored) {
            table.dropped(raw.watch)
            return
        }
        let event = WatchEvent(folder: folder, name: raw.name, mask: raw.mask, cookie: raw.cookie)
        perform(interpreter.handle(event, at: now), at: now, into: &work)
    }

    private func perform(_ actions: [ChangeInterpreter.Action], at now: MonotonicInstant, into work: inout [ScanWork]) {
        for action in actions {
            switch action {
            case .settle(let path, let hint):
                record(settle.changed(path, hint, at: now), into: &work)
            case .forget(let path):
                settle.forget(path)
            case .check(let paths):
                work.append(.paths(paths))
            case .move(let from, let to, let isFolder):
                if isFolder {
                    table?.rename(from: from, to: to)
                    settle.renamed(from: from, to: to)
                    exclusions.update { $0.moveFiles(from: from, to: to) }
                    work.append(.move(from: from, to: to, isFolder: true))
                } else if settle.isTracked(from) {
                    // Still settling: it settles under its new name; the old one is looked at.
                    settle.renamed(from: from, to: to)
                    work.append(.paths([from]))
                } else {
                    work.append(.move(from: from, to: to, isFolder: false))
                }
            case .unwatch(let folder):
                table?.unwatch(under: folder)
            case .fullScan:
                work.append(.full(.overflow))
            }
        }
    }

    private func record(_ actions: [SettleMachine.Action], into work: inout [ScanWork]) {
        for action in actions {
            switch action {
            case .look: break
            case .settled(let paths), .vanished(let paths): work.append(.paths(paths))
            case .unsettled(let paths):
                logger.notice(
                    "still changing after the settle bound: processed as it is, marked unsettled",
                    metadata: ["files": "\(paths.count)", "first": "\(paths[0])"]
                )
                work.append(.unsettled(paths))
            case .overflow:
                logger.warning(
                    "more files changing at once than the watcher tracks (\(settle.configuration.capacity)): scanning everything instead"
                )
                work.append(.full(.settleOverflow))
            }
        }
    }

    /// Consecutive path lists as one: the scanner gets one batch per turn.
    static func merged(_ work: [ScanWork]) -> [ScanWork] {
        var result: [ScanWork] = []
        for item in work {
            if case .paths(let more) = item, case .paths(let paths)? = result.last {
                result[result.count - 1] = .paths(paths + more)
            } else if case .unsettled(let more) = item, case .unsettled(let paths)? = result.last {
                result[result.count - 1] = .unsettled(paths + more)
            } else {
                result.append(item)
            }
        }
        return result
    }
}
