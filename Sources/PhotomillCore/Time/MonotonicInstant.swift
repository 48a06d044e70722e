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

/// A point on the monotonic clock (Linux `CLOCK_MONOTONIC`), which never steps: what every
/// deadline is measured on (leases, heartbeats, liveness, backoff, commit and refresh
/// intervals). Setting the wall clock (NTP, a VM resumed, an operator) moves none of them.
/// Its zero is arbitrary (the boot), so it is never stored or shown: `WallClock` is for that.
public struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// Before any reading of the clock: the time of something that never happened.
    public static let distantPast = MonotonicInstant(nanoseconds: Int64.min / 4)

    public static func now() -> MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// `seconds` later (earlier when negative).
    public static func + (lhs: MonotonicInstant, seconds: Double) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: lhs.nanoseconds + Int64((seconds * 1e9).rounded()))
    }

    public static func - (lhs: MonotonicInstant, seconds: Double) -> MonotonicInstant { lhs + -seconds }

    /// The seconds from `rhs` to `lhs`.
    public static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Double {
        Double(lhs.nanoseconds - rhs.nanoseconds) / 1e9
    }

    public static func += (lhs: inout MonotonicInstant, seconds: Double) { lhs = lhs + seconds }

    public var description: String { String(format: "%.3f s (monotonic)", Double(nanoseconds) / 1e9) }
}

/// The wall clock, in seconds since the Unix epoch: only for timestamps stored in the
/// catalog and shown to people, never for a deadline (it steps).
public enum WallClock {
    public static func now() -> Double { Date().timeIntervalSince1970 }
}

/// One reading of both clocks: what the coordinator's scheduler is given with each event.
/// Deadlines are computed on `monotonic`; `wall` only goes into what is written down.
public struct ClockReading: Sendable, Hashable {
    public var monotonic: MonotonicInstant
    public var wall: Double

    public init(monotonic: MonotonicInstant, wall: Double) {
        self.monotonic = monotonic
        self.wall = wall
    }

    public static func now() -> ClockReading { ClockReading(monotonic: .now(), wall: WallClock.now()) }
}
