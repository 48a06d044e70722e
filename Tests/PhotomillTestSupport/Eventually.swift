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

/// Checks `condition` until it holds or `seconds` pass on the monotonic clock (which no
/// wall-clock step moves); returns whether it held. The deadline is a bound on a failing
/// test, never part of what it asserts: the condition is the event.
///
/// Between two checks it waits 20 ms, or three times as long as the last check took: a
/// cheap condition (a file, the catalog read in this process) is seen within 20 ms, and
/// one that starts a program (`photomill status`, a Python script) takes at most a quarter
/// of a core, not the whole core the processes it waits for need on a 2-core machine.
public func eventually(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = MonotonicInstant.now() + seconds
    while MonotonicInstant.now() < deadline {
        let started = MonotonicInstant.now()
        if try condition() { return true }
        let pause = max(0.02, 3 * (MonotonicInstant.now() - started))
        usleep(UInt32(min(pause, max(0, deadline - MonotonicInstant.now()), 1) * 1_000_000))
    }
    return try condition()
}

/// Seconds on the monotonic clock since it was started: what a test measures and reports
/// (a recovery, a drain), never what it asserts.
public struct Stopwatch: Sendable {
    public let started = MonotonicInstant.now()
    public init() {}
    public var seconds: Double { MonotonicInstant.now() - started }
}
