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

/// A photo's 64-bit perceptual hash (the `similarity` kind; docs/processing.md, "Similar
/// photos"): pictures that look alike have hashes a few bits apart. Bit 63 (the first hex
/// digit's highest bit) is the first DCT coefficient, row by row, as imagehash writes its
/// `phash`, so the hex of both can be compared digit for digit.
public struct PerceptualHash: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let value: UInt64

    public init(_ value: UInt64) { self.value = value }

    /// The catalog's INTEGER: the same 64 bits, signed.
    public init(bitPattern value: Int64) { self.value = UInt64(bitPattern: value) }
    public var bitPattern: Int64 { Int64(bitPattern: value) }

    /// 16 hex digits, upper or lower case.
    public init?(hex: some StringProtocol) {
        guard hex.utf8.count == 16, let value = UInt64(hex, radix: 16) else { return nil }
        self.value = value
    }

    /// 16 lowercase hex digits: how the exports, `inspect` and `similar` write it.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public var description: String { hex }

    /// Bits that differ (Hamming distance), 0…64.
    public func distance(to other: PerceptualHash) -> Int { (value ^ other.value).nonzeroBitCount }

    /// The four 16-bit chunks, highest first: what the catalog's index looks up
    /// (docs/catalog.md, "similarity").
    public var chunks: [UInt16] { (0..<4).map { chunk($0) } }

    public func chunk(_ index: Int) -> UInt16 { UInt16(truncatingIfNeeded: value >> UInt64(48 - 16 * index)) }

    public static func < (lhs: PerceptualHash, rhs: PerceptualHash) -> Bool { lhs.value < rhs.value }
}
