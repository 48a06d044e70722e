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

/// Checks `condition` every 20 ms until it holds or `seconds` pass on the monotonic clock
/// (which no wall-clock step moves); returns whether it held. The deadline is a bound on
/// a failing test, never part of what it asserts: the condition is the event.
public func eventually(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = MonotonicInstant.now() + seconds
    while MonotonicInstant.now() < deadline {
        if try condition() { return true }
        usleep(20_000)
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
