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

import CBrotli
import Foundation

/// What exiv2 0.27 leaves out of a JPEG XL file (it reads the container's plain `Exif`
/// and `xml ` boxes), from the container as ISO/IEC 18181-2 lays it out and the codestream
/// header ISO/IEC 18181-1 defines:
///
/// - the size, from the codestream (a bare one, starting FF 0A, or the container's `jxlc`
///   box, or its first `jxlp` part), which exiv2 does not report;
/// - `brob` boxes: a box type, then that box's content compressed with Brotli (RFC 7932),
///   decompressed here with libbrotlidec (at most 16 MiB), which exiv2 0.27 cannot.
struct JXLBoxes {
    private(set) var size: (width: Int, height: Int)?
    /// The TIFF structure of a Brotli-compressed `Exif` box, after its four-byte offset.
    private(set) var exif: [UInt8]?
    /// A Brotli-compressed `xml ` box (the XMP packet).
    private(set) var xmp: Data?

    static let signature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
    static let largestBox = 16 << 20

    init?(_ bytes: UnsafeRawBufferPointer) {
        if bytes.starts(with: [0xFF, 0x0A]) {
            size = Self.codestreamSize(bytes)
            return
        }
        guard bytes.starts(with: Self.signature) else { return nil }
        let reader = BMFFReader(bytes: bytes)
        for box in reader.boxes(in: 0..<bytes.count) {
            let payload = UnsafeRawBufferPointer(rebasing: bytes[box.payload])
            switch box.type {
            case "jxlc" where size == nil:
                size = Self.codestreamSize(payload)
            case "jxlp" where size == nil && payload.count > 4:
                size = Self.codestreamSize(UnsafeRawBufferPointer(rebasing: payload[4...]))
            case "brob" where payload.count > 4:
                let type = String(decoding: payload.prefix(4), as: UTF8.self)
                guard (type == "Exif" && exif == nil) || (type == "xml " && xmp == nil),
                    let content = Self.brotli(UnsafeRawBufferPointer(rebasing: payload[4...]))
                else { continue }
                if type == "Exif" { exif = Self.tiff(inExifBox: content) } else { xmp = Data(content) }
            default:
                continue
            }
        }
    }

    /// An `Exif` box's payload: a 32-bit big-endian offset, then (after that many bytes)
    /// the TIFF header.
    private static func tiff(inExifBox payload: [UInt8]) -> [UInt8]? {
        guard payload.count > 8 else { return nil }
        let offset = payload.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        guard offset >= 0, offset < payload.count - 4 - 8 else { return nil }
        return Array(payload[(4 + offset)...])
    }

    /// Brotli-decompressed bytes, nil when the stream is damaged or decompresses to more
    /// than `largestBox`.
    static func brotli(_ compressed: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { return nil }
        defer { BrotliDecoderDestroyInstance(state) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var availableIn = compressed.count
        var nextIn = compressed.baseAddress?.assumingMemoryBound(to: UInt8.self)
        while true {
            var availableOut = chunk.count
            let result = chunk.withUnsafeMutableBufferPointer { buffer -> BrotliDecoderResult in
                var nextOut: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
                return BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
            }
            output += chunk.prefix(chunk.count - availableOut)
            guard output.count <= largestBox else { return nil }
            switch result {
            case BROTLI_DECODER_RESULT_SUCCESS: return output
            case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
            default: return nil  // an error, or input that ends mid-stream
            }
        }
    }

    /// The SizeHeader right after a codestream's signature (FF 0A), its fields read least
    /// significant bit first: `small` (1 bit); the height as (5 bits + 1) × 8 when small,
    /// else a U32 of 9, 13, 18 or 30 bits (plus 1) chosen by 2 bits; a 3-bit ratio, which
    /// gives the width as a fraction of the height (1, 12/10, 4/3, 3/2, 16/9, 5/4, 2) or,
    /// when 0, is followed by the width coded as the height was.
    static func codestreamSize(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        guard bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0x0A else { return nil }
        var reader = BitReader(bytes: UnsafeRawBufferPointer(rebasing: bytes[2...]))
        func dimension(small: Bool) -> Int? {
            if small { return reader.bits(5).map { ($0 + 1) * 8 } }
            guard let selector = reader.bits(2) else { return nil }
            return reader.bits([9, 13, 18, 30][selector]).map { $0 + 1 }
        }
        guard let small = reader.bits(1), let height = dimension(small: small == 1), let ratio = reader.bits(3) else {
            return nil
        }
        let ratios = [(1, 1), (12, 10), (4, 3), (3, 2), (16, 9), (5, 4), (2, 1)]
        let width: Int
        if ratio == 0 {
            guard let coded = dimension(small: small == 1) else { return nil }
            width = coded
        } else {
            width = height * ratios[ratio - 1].0 / ratios[ratio - 1].1
        }
        return width > 0 && height > 0 ? (width, height) : nil
    }

    /// Bits of a byte string, least significant first.
    private struct BitReader {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        mutating func bits(_ count: Int) -> Int? {
            guard position + count <= bytes.count * 8 else { return nil }
            var value = 0
            for index in 0..<count {
                let bit = Int(bytes[(position + index) / 8] >> ((position + index) % 8)) & 1
                value |= bit << index
            }
            position += count
            return value
        }
    }
}
