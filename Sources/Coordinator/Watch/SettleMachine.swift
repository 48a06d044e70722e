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
import PhotomillCore

/// A file as lstat(2) saw it while it settles: size, modification and change times. The
/// change time moves on every write and on a modification time set back (`touch -d`), so a
/// rewrite that restores its mtime is still a change.
struct SettleStamp: Hashable, Sendable {
    var size: Int64
    var mtimeNs: Int64
    var ctimeNs: Int64

    init(size: Int64, mtimeNs: Int64, ctimeNs: Int64) {
        self.size = size
        self.mtimeNs = mtimeNs
        self.ctimeNs = ctimeNs
    }

    init(_ info: stat) {
        size = Int64(info.st_size)
        mtimeNs = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        ctimeNs = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }
}

/// When a changed file may be processed: once it has stopped changing. A state machine
/// without clocks or file systems (events and the time in, actions out), tested alone.
///
/// A file is *settled* when no writer is known to hold it open for writing (a write was
/// seen and no `IN_CLOSE_WRITE` after it) and two looks at it (`lstat`), `window` seconds
/// apart or more, found the same size, mtime and ctime with no change event between them.
/// A file that keeps changing is looked at once a window, never more; one still changing
/// `bound` seconds after its first change is handed over anyway, *unsettled* (a writer
/// that never closes, a file appended to for good), and tracked afresh if it goes on.
/// A closed writer restarts the window from the close, so a copy is processed `window`
/// seconds after it closes. At most `capacity` files are tracked: past that, the machine
/// forgets them all and asks for a full scan instead (memory stays bounded whatever
/// floods the folders).
struct SettleMachine {
    struct Configuration: Sendable, Hashable {
        /// Seconds a file must stay the same (`--settle`).
        var window: Double
        /// Seconds after which a file still changing is processed anyway.
        var bound: Double
        var capacity: Int

        init(window: Double, bound: Double? = nil, capacity: Int = 100_000) {
            self.window = window
            self.bound = bound ?? max(600, 30 * window)
            self.capacity = capacity
        }
    }

    /// What a change event says of the file.
    enum Hint: Sendable, Hashable {
        /// Written through a descriptor (`IN_MODIFY`): a writer has it open.
        case written
        /// A writer closed it (`IN_CLOSE_WRITE`).
        case closedAfterWrite
        /// It appeared or its attributes changed (created, moved in, `IN_ATTRIB`, or found
        /// by a scan with a change time within the window).
        case touched
    }

    enum Action: Sendable, Hashable {
        /// Look at these files now (lstat) and report each with `observed`.
        case look([String])
        /// Unchanged over the window, no writer known: scan them.
        case settled([String])
        /// Still changing after `bound`: scan them, marked as processed unsettled.
        case unsettled([String])
        /// Gone when looked at: the scan checks the path.
        case vanished([String])
        /// More files changing than `capacity`: all forgotten, scan everything instead.
        case overflow
    }

    private struct Entry {
        /// The stamp of the last look, and when it was taken.
        var baseline: SettleStamp?
        var lookedAt: MonotonicInstant?
        /// A change event came since the last look.
        var dirty = true
        /// A write was seen and no close after it.
        var writer = false
        var firstChange: MonotonicInstant
        /// When to look next; nil while a look is out.
        var due: MonotonicInstant?
    }

    let configuration: Configuration
    private var entries: [String: Entry] = [:]

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Files waiting to settle.
    var count: Int { entries.count }

    /// The earliest time `tick` has something to do; nil when nothing is tracked.
    var nextDeadline: MonotonicInstant? { entries.values.compactMap(\.due).min() }

    /// A change event for `path`. A file not yet tracked is looked at at the next tick.
    mutating func changed(_ path: String, _ hint: Hint, at now: MonotonicInstant) -> [Action] {
        if entries[path] == nil {
            guard entries.count < configuration.capacity else {
                entries.removeAll()
                return [.overflow]
            }
            entries[path] = Entry(firstChange: now, due: now)
        }
        switch hint {
        case .written:
            entries[path]!.writer = true
        case .closedAfterWrite:
            entries[path]!.writer = false
            // The window runs from the close: look now for the baseline.
            if entries[path]!.due != nil { entries[path]!.due = now }
        case .touched:
            break
        }
        entries[path]!.dirty = true
        return []
    }

    /// The files due for a look.
    mutating func tick(at now: MonotonicInstant) -> [Action] {
        var due: [String] = []
        for (path, entry) in entries {
            guard let time = entry.due, time <= now else { continue }
            entries[path]!.due = nil
            due.append(path)
        }
        return due.isEmpty ? [] : [.look(due.sorted())]
    }

    /// What a look at `path` found (nil: it is gone).
    mutating func observed(_ path: String, _ stamp: SettleStamp?, at now: MonotonicInstant) -> [Action] {
        guard var entry = entries[path] else { return [] }
        guard let stamp else {
            entries[path] = nil
            return [.vanished([path])]
        }
        if !entry.dirty && !entry.writer && entry.baseline == stamp,
            let lookedAt = entry.lookedAt, now - lookedAt >= configuration.window
        {
            entries[path] = nil
            return [.settled([path])]
        }
        if now - entry.firstChange >= configuration.bound {
            entries[path] = nil
            return [.unsettled([path])]
        }
        entry.baseline = stamp
        entry.lookedAt = now
        entry.dirty = false
        entry.due = now + configuration.window
        entries[path] = entry
        return []
    }

    /// `path` and everything under it left (deleted, or moved out): no longer tracked.
    mutating func forget(_ path: String) {
        if entries.removeValue(forKey: path) != nil { return }
        let prefix = path + "/"
        for key in entries.keys where key.hasPrefix(prefix) { entries[key] = nil }
    }

    /// `from` (a file, or a folder and what it holds) is now `to`: tracked under its new
    /// path, as dirty (a rename is a change).
    mutating func renamed(from: String, to: String) {
        for key in Array(entries.keys) {
            guard let target = key.replacingPathPrefix(from, with: to) else { continue }
            var entry = entries.removeValue(forKey: key)!
            entry.dirty = true
            entries[target] = entry
        }
    }

    func isTracked(_ path: String) -> Bool { entries[path] != nil }
}
