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

import PhotomillCore

/// Both clocks, moved by hand, for state machines tested alone: `advance` moves both
/// (time passing), `stepWall` only the wall clock (NTP, a VM resumed, an operator's
/// `date -s`).
public struct ManualClock: Sendable {
    public var monotonic = MonotonicInstant(nanoseconds: 1_000_000_000_000)  // 1000 s after boot
    public var wall: Double = 1_800_000_000  // January 2027

    public init() {}

    public var now: ClockReading { ClockReading(monotonic: monotonic, wall: wall) }

    public mutating func advance(_ seconds: Double) {
        monotonic += seconds
        wall += seconds
    }

    public mutating func stepWall(_ seconds: Double) { wall += seconds }
}
