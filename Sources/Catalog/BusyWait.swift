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
internal import GRDB
import PhotomillCore
import Synchronization

/// A write that waits for another process's lock on the catalog file.
public enum CatalogBusy: Sendable, Hashable {
    /// Still waiting, for this many seconds so far.
    case waiting(seconds: Double)
    /// The lock was let go after this many seconds; the write went on.
    case released(seconds: Double)
}

/// Waits for another process's lock on the catalog file, as SQLite's busy handler: a write
/// sleeps and tries again for as long as the lock is held, and says so.
final class BusyWait: @unchecked Sendable {
    // @unchecked: every field but `report` (immutable) is guarded by `lock`. SQLite calls
    // the handler on the writer connection, one write at a time.
    private let lock = NSLock()
    private let report: (@Sendable (CatalogBusy) -> Void)?
    private var started = MonotonicInstant.distantPast
    private var nextReport = 1.0
    private var reported = false
    private var givenUp = false

    init(report: (@Sendable (CatalogBusy) -> Void)?) {
        self.report = report
    }

    var callback: Database.BusyCallback {
        { [self] tries in wait(tries: tries) }
    }

    private func wait(tries: Int) -> Bool {
        let now = MonotonicInstant.now()
        let (waited, tell, stop): (Double, Bool, Bool) = lock.withLock {
            if tries == 0 {
                started = now
                nextReport = 1
            }
            let waited = now - started
            let tell = waited >= nextReport
            if tell {
                nextReport += nextReport < 10 ? 9 : 10
                reported = true
            }
            return (waited, tell, givenUp)
        }
        if stop { return false }
        if tell { report?(.waiting(seconds: waited)) }
        // Short sleeps first (most locks are a commit's few milliseconds), then 100 ms.
        usleep(tries < 10 ? 1_000 : tries < 50 ? 10_000 : 100_000)
        return true
    }

    /// After each write: says that a reported wait is over.
    func finished() {
        let waited: Double? = lock.withLock {
            guard reported else { return nil }
            reported = false
            return MonotonicInstant.now() - started
        }
        if let waited { report?(.released(seconds: waited)) }
    }

    /// Closing: a write that finds the file locked fails at once.
    func giveUp() {
        lock.withLock { givenUp = true }
    }
}

/// True the first time `first()` is called, false after.
final class Once: Sendable {
    private let done = Mutex(false)

    func first() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}
