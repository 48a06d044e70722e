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

/// The similarity kind's second hash (docs/processing.md, "Similar photos"): 256 bits from
/// the same 32 × 32 grey picture, its 16 × 16 lowest DCT frequencies, each set when its
/// coefficient is above the mean of the 255 besides the DC term. Four times the 64-bit
/// hash's frequencies see what it cannot: two pages of text in one layout are a few bits
/// apart in the 64-bit hash and mostly 70–95 apart here, a re-encoding of one picture 0–20.
/// Not indexed: the 64-bit hash proposes pairs, this one confirms them
/// (`Catalog.detailDistance`). Bit 255 (the first hex digit's highest) is the DC term, then
/// row by row, as `PerceptualHash`.
public struct DetailHash: Sendable, Hashable, CustomStringConvertible {
    /// The 256 bits as four words, the first bits in the first word's highest.
    public let words: [UInt64]

    public static let byteCount = 32

    /// The words of `bits` in order, first bit highest.
    public init(bits: [Bool]) {
        precondition(bits.count == 256, "256 bits")
        words = (0..<4).map { word in bits[word * 64..<(word + 1) * 64].reduce(0) { $0 << 1 | ($1 ? 1 : 0) } }
    }

    /// 32 bytes, big-endian (the catalog's BLOB and the wire's `detail_hash`); nil for any
    /// other length.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        let bytes = Array(bytes)
        words = (0..<4).map { word in bytes[word * 8..<(word + 1) * 8].reduce(0) { $0 << 8 | UInt64($1) } }
    }

    public var bytes: Data {
        Data(words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * $0)) } })
    }

    /// 64 lowercase hex digits.
    public var hex: String { words.map { PerceptualHash($0).hex }.joined() }

    public var description: String { hex }

    /// Bits that differ, 0…256.
    public func distance(to other: DetailHash) -> Int {
        zip(words, other.words).reduce(0) { $0 + ($1.0 ^ $1.1).nonzeroBitCount }
    }
}
