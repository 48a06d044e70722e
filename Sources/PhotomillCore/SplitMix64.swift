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

/// photomill's one seeded random generator: every sample decision, the mutations of the
/// fuzz tests, the jitter the scheduler's tests replay. Swift's
/// `SystemRandomNumberGenerator` cannot be seeded, and what it drives must be the same
/// for the same seed on every machine and every Swift version, so the algorithm is fixed
/// here (Steele, Lea and Flood's SplitMix64, as used to seed xoshiro).
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A generator for one item of a sequence, independent of how many draws the other
    /// items made: adding a field to one sample must not reshuffle all the others.
    public init(seed: UInt64, stream: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        state = mixer.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `range`. The standard library's `Int.random(in:using:)` would also
    /// work, but its algorithm is not promised to stay the same across releases.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % span)
    }

    /// Uniform in [lower, upper).
    public mutating func double(in range: Range<Double>) -> Double {
        let unit = Double(next() >> 11) / Double(1 << 53)
        return range.lowerBound + unit * (range.upperBound - range.lowerBound)
    }

    public mutating func pick<T>(_ items: [T]) -> T { items[int(in: 0...items.count - 1)] }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { double(in: 0..<1) < p }
}
