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

import CHamming
import Foundation
import PhotomillCore

/// Near pairs among many perceptual hashes without comparing every pair: multi-index
/// hashing (Norouzi, Punjani and Fleet, "Fast Search in Hamming Space with Multi-Index
/// Hashing", 2012) over the hash's four 16-bit chunks, the catalog's own index
/// (`similarity_c0` … `c3`) built in memory.
///
/// Why it is exact: if two hashes differ in more than `r_i` bits of every chunk i, they
/// differ in at least Σ (r_i + 1) bits. So with radii whose Σ (r_i + 1) exceeds the distance
/// d (`radii(for:)`: Σ r_i = d − 3, spread evenly), every pair within d agrees within r_i
/// bits on some chunk i, and is found by looking, for each chunk, at the buckets whose
/// chunk value is within r_i bits of its own. For d ≤ 3 that is an exact match of one chunk.
///
/// Each chunk's hashes are kept sorted by that chunk (a counting sort: 65,536 buckets), so
/// a bucket's hashes are compared from contiguous memory, by `pm_hamming_near` (CHamming: the
/// CPU's bit-count instruction, which halves the comparisons' time: docs/benchmarks.md).
public struct HashIndex: Sendable {
    public let hashes: [UInt64]
    /// Per chunk: the items in order of that chunk's value, their hashes in that order, and
    /// where each value's bucket starts (65,537 offsets).
    private var order: [[Int32]] = []
    private var sorted: [[UInt64]] = []
    private var starts: [[Int32]] = []
    /// The most hashes in one bucket of any chunk: the room `pm_hamming_near` may fill.
    private var largestBucket = 0

    public static let chunks = 4
    static let buckets = 1 << 16

    public init(_ hashes: [UInt64]) {
        precondition(hashes.count < Int(Int32.max), "at most 2^31 - 1 hashes")
        self.hashes = hashes
        for chunk in 0..<Self.chunks {
            var start = [Int32](repeating: 0, count: Self.buckets + 1)
            for hash in hashes { start[Self.value(hash, chunk) + 1] += 1 }
            for bucket in 0..<Self.buckets {
                largestBucket = max(largestBucket, Int(start[bucket + 1]))
                start[bucket + 1] += start[bucket]
            }
            var next = start
            var order = [Int32](repeating: 0, count: hashes.count)
            var sorted = [UInt64](repeating: 0, count: hashes.count)
            for (item, hash) in hashes.enumerated() {
                let bucket = Self.value(hash, chunk)
                let slot = Int(next[bucket])
                next[bucket] += 1
                order[slot] = Int32(item)
                sorted[slot] = hash
            }
            self.order.append(order)
            self.sorted.append(sorted)
            starts.append(start)
        }
    }

    /// The chunk's value: chunk 0 is the highest 16 bits (`PerceptualHash.chunk`).
    @inline(__always)
    static func value(_ hash: UInt64, _ chunk: Int) -> Int {
        Int(truncatingIfNeeded: (hash >> UInt64(48 - 16 * chunk)) & 0xFFFF)
    }

    /// Bits each chunk may differ in for pairs within `distance`: Σ r_i = distance − 3
    /// (none below 0), the larger radii first.
    public static func radii(for distance: Int) -> [Int] {
        let total = max(0, distance - (chunks - 1))
        return (0..<chunks).map { total / chunks + ($0 < total % chunks ? 1 : 0) }
    }

    /// The 16-bit masks of 1…`radius` bits, fewest bits first.
    static func masks(upTo radius: Int) -> [Int] {
        guard radius > 0 else { return [] }
        return (1..<buckets).filter { $0.nonzeroBitCount <= radius }.sorted { $0.nonzeroBitCount < $1.nonzeroBitCount }
    }

    /// Every pair (i, j), i < j, of items whose hashes are within `distance` bits, at least
    /// once each (a pair close on several chunks is found on each of them), as `i << 32 | j`.
    /// The buckets are shared out among `threads` threads of our own (`pm-similar-N`),
    /// interleaved so that each gets as many crowded ones.
    public func pairs(
        within distance: Int,
        threads: Int = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
    ) -> [UInt64] {
        let index = self
        let workers = (0..<threads).map { part in
            OwnedThread(name: "pm-similar-\(part)") { index.pairs(within: distance, part: part, of: threads) }
        }
        return workers.flatMap { $0.join() }
    }

    /// The pairs found from the buckets `part`, `part + parts`, … of each chunk.
    private func pairs(within distance: Int, part: Int, of parts: Int) -> [UInt64] {
        var found: [UInt64] = []
        // The offsets `near` finds in one bucket.
        let near = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: largestBucket + 1)
        defer { near.deallocate() }
        for (chunk, radius) in Self.radii(for: distance).enumerated() {
            let masks = Self.masks(upTo: radius)
            order[chunk].withUnsafeBufferPointer { order in
                sorted[chunk].withUnsafeBufferPointer { sorted in
                    starts[chunk].withUnsafeBufferPointer { start in
                        func report(_ a: Int, _ b: Int) {
                            let i = UInt64(UInt32(bitPattern: order[a]))
                            let j = UInt64(UInt32(bitPattern: order[b]))
                            found.append(i < j ? i << 32 | j : j << 32 | i)
                        }
                        for bucket in stride(from: part, to: Self.buckets, by: parts) {
                            let from = Int(start[bucket])
                            let to = Int(start[bucket + 1])
                            guard from < to else { continue }
                            // Within the bucket: every pair once.
                            for a in from..<to {
                                let count = Self.near(sorted[a], sorted, from: a + 1, to: to, distance, into: near)
                                for offset in near.prefix(count) { report(a, a + 1 + Int(offset)) }
                            }
                            // With each higher bucket within the radius: every cross pair once.
                            for mask in masks {
                                let other = bucket ^ mask
                                guard other > bucket else { continue }
                                let otherFrom = Int(start[other])
                                let otherTo = Int(start[other + 1])
                                guard otherFrom < otherTo else { continue }
                                for a in from..<to {
                                    let count = Self.near(
                                        sorted[a],
                                        sorted,
                                        from: otherFrom,
                                        to: otherTo,
                                        distance,
                                        into: near
                                    )
                                    for offset in near.prefix(count) { report(a, otherFrom + Int(offset)) }
                                }
                            }
                        }
                    }
                }
            }
        }
        return found
    }

    /// The offsets from `from` of the hashes in `hashes[from..<to]` within `distance` bits of
    /// `hash`, written to `near`; how many (`pm_hamming_near`: the CPU's bit count).
    @inline(__always)
    private static func near(
        _ hash: UInt64,
        _ hashes: UnsafeBufferPointer<UInt64>,
        from: Int,
        to: Int,
        _ distance: Int,
        into near: UnsafeMutableBufferPointer<UInt32>
    ) -> Int {
        guard from < to else { return 0 }
        return pm_hamming_near(hash, hashes.baseAddress! + from, to - from, UInt32(distance), near.baseAddress!)
    }
}
