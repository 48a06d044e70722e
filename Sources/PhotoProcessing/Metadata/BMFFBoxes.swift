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

/// Bounds-checked reading of ISO base media boxes (HEIF, AVIF, CR3): sizes and offsets
/// come from the file, so each is checked before use and a damaged box ends the walk
/// instead of reading past the bytes.
///
/// Reads `bytes` in place: valid only while those bytes are.
struct BMFFReader {
    let bytes: UnsafeRawBufferPointer

    /// One box: its four-character type, its payload's place in `bytes` (after the size,
    /// type and, for `uuid` boxes, the 16-byte extended type), that extended type, and
    /// where the whole box starts.
    struct Box {
        let type: String
        let payload: Range<Int>
        let uuid: [UInt8]?
        let start: Int

        /// The whole box: header and payload.
        var whole: Range<Int> { start..<payload.upperBound }
    }

    /// The boxes that follow one another in `range`. A box that claims more bytes than
    /// remain is cut to what remains (a truncated file) and ends the walk.
    func boxes(in range: Range<Int>) -> [Box] {
        var result: [Box] = []
        var at = max(range.lowerBound, 0)
        let end = min(range.upperBound, bytes.count)
        while at <= end - 8, result.count < 4096 {
            var size = Int(uint32(at: at) ?? 0)
            let type = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(at + 4)..<(at + 8)]), as: UTF8.self)
            var header = 8
            if size == 1 {
                guard let large = uint64(at: at + 8), large <= UInt64(Int.max) else { break }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = end - at
            }
            var uuid: [UInt8]?
            if type == "uuid" {
                guard at + header + 16 <= end else { break }
                uuid = Array(bytes[(at + header)..<(at + header + 16)])
                header += 16
            }
            guard size >= header, header <= end - at else { break }
            let boxEnd = size > end - at ? end : at + size
            result.append(Box(type: type, payload: (at + header)..<boxEnd, uuid: uuid, start: at))
            at = boxEnd
        }
        return result
    }

    /// The payload of the first box of `type` in `range`.
    func first(_ type: String, in range: Range<Int>) -> Range<Int>? {
        boxes(in: range).first { $0.type == type }?.payload
    }

    /// `lower..<upper`, or an empty range when a box is too short for the fields it
    /// should start with.
    func span(_ lower: Int, _ upper: Int) -> Range<Int> { lower <= upper ? lower..<upper : upper..<upper }

    func uint8(at offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    func uint16(at offset: Int) -> UInt16? { unsigned(at: offset, length: 2).map { UInt16($0) } }
    func uint32(at offset: Int) -> UInt32? { unsigned(at: offset, length: 4).map { UInt32($0) } }
    func uint64(at offset: Int) -> UInt64? { unsigned(at: offset, length: 8) }

    /// A big-endian unsigned number of `length` bytes (0…8); 0 bytes read as 0, as ISO
    /// base media's variable-size fields (iloc's offset and length sizes) mean.
    func unsigned(at offset: Int, length: Int) -> UInt64? {
        guard length >= 0, length <= 8, offset >= 0, offset <= bytes.count - length else { return nil }
        return (0..<length).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
    }
}
