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

extension SyntheticDNG {
    /// Every byte before the raw samples. DNG is a little-endian TIFF: the header, IFD0
    /// (the first preview, or the raw image when there is none), the SubIFDs (the raw
    /// image, then the other previews), the previews' bytes, then the raw strip last so
    /// that it can be streamed.
    func header(previewBytes: [[UInt8]], rawBytes: Int, file: String) throws(SampleError) -> [UInt8] {
        // Directory lengths do not depend on the offsets written into them, so one pass
        // with zero offsets measures the layout and the second writes the real one.
        func directories(subIFDs: [Int], data: [Int], raw: Int) -> [[TIFFEntry]] {
            let rawIFD = rawEntries(stripOffset: raw, rawBytes: rawBytes)
            guard !previews.isEmpty else { return [rawIFD + dngEntries()] }
            let stored = previews.indices.map {
                previewEntries(previews[$0], offset: data[$0], length: previewBytes[$0].count)
            }
            return [stored[0] + dngEntries() + [.long(330, subIFDs.map(UInt32.init))], rawIFD] + stored.dropFirst()
        }
        let measured = directories(
            subIFDs: Array(repeating: 0, count: previews.count),
            data: Array(repeating: 0, count: previews.count),
            raw: 0
        )
        var subIFDs: [Int] = []
        var end = 8 + TIFFEntry.encodedLength(measured[0])
        for directory in measured.dropFirst() {
            subIFDs.append(end)
            end += TIFFEntry.encodedLength(directory)
        }
        var data: [Int] = []
        for bytes in previewBytes {
            data.append(end)
            end = (end + bytes.count + 1) & ~1
        }
        let raw = end
        guard raw + rawBytes <= Int(UInt32.max) else {
            throw SampleError(file: file, message: "\(width)×\(height) needs more than the 4 GiB a TIFF can address")
        }

        let final = directories(subIFDs: subIFDs, data: data, raw: raw)
        var out: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]  // "II", 42, IFD0 at 8
        out += TIFFEntry.encode(final[0], at: 8)
        for (directory, offset) in zip(final.dropFirst(), subIFDs) { out += TIFFEntry.encode(directory, at: offset) }
        for (bytes, offset) in zip(previewBytes, data) {
            out += [UInt8](repeating: 0, count: offset - out.count) + bytes
        }
        out += [UInt8](repeating: 0, count: raw - out.count)
        return out
    }

    /// The raw image: 16-bit samples in one strip, a 2×2 RGGB colour filter array.
    private func rawEntries(stripOffset: Int, rawBytes: Int) -> [TIFFEntry] {
        [
            .long(254, [0]),  // NewSubfileType: full-resolution image
            .long(256, [UInt32(width)]),  // ImageWidth
            .long(257, [UInt32(height)]),  // ImageLength
            .short(258, [16]),  // BitsPerSample
            .short(259, [1]),  // Compression: none
            .short(262, [32803]),  // PhotometricInterpretation: CFA
            .long(273, [UInt32(stripOffset)]),  // StripOffsets
            .short(277, [1]),  // SamplesPerPixel
            .long(278, [UInt32(height)]),  // RowsPerStrip
            .long(279, [UInt32(rawBytes)]),  // StripByteCounts
            .short(284, [1]),  // PlanarConfiguration: chunky
            .short(33421, [2, 2]),  // CFARepeatPatternDim
            .bytes(33422, [0, 1, 1, 2]),  // CFAPattern: R G / G B
            .long(50717, [65535]),  // WhiteLevel
        ]
    }

    /// A preview's directory: a baseline JPEG (TIFF compression 7) of 8-bit YCbCr, or
    /// uncompressed 8-bit RGB, marked as a reduced-resolution image.
    private func previewEntries(_ preview: Preview, offset: Int, length: Int) -> [TIFFEntry] {
        let jpeg = preview.encoding == .jpeg
        let size = size(of: preview)
        return [
            .long(254, [1]),  // NewSubfileType: reduced-resolution preview
            .long(256, [UInt32(size.width)]),
            .long(257, [UInt32(size.height)]),
            .short(258, [8, 8, 8]),
            .short(259, [jpeg ? 7 : 1]),  // Compression: JPEG or none
            .short(262, [jpeg ? 6 : 2]),  // PhotometricInterpretation: YCbCr or RGB
            .long(273, [UInt32(offset)]),
            .short(277, [3]),
            .long(278, [UInt32(size.height)]),
            .long(279, [UInt32(length)]),
            .short(284, [1]),
        ]
    }

    /// The tags of IFD0 that describe the camera and its colour: identity, orientation,
    /// and a ColorMatrix1 that is the XYZ(D65)→linear-sRGB matrix, so that camera RGB
    /// *is* linear sRGB and the quadrants decode to the colours they were written with.
    private func dngEntries() -> [TIFFEntry] {
        let xyzToSRGB: [Double] = [
            3.240479, -1.537150, -0.498535,
            -0.969256, 1.875992, 0.041556,
            0.055648, -0.204043, 1.057311,
        ]
        return [
            .ascii(271, make),  // Make
            .ascii(272, model),  // Model
            .short(274, [UInt16(orientation)]),  // Orientation
            .bytes(50706, [1, 4, 0, 0]),  // DNGVersion 1.4
            .bytes(50707, [1, 1, 0, 0]),  // DNGBackwardVersion 1.1
            .ascii(50708, "\(make) \(model)"),  // UniqueCameraModel
            .signedRationals(50721, xyzToSRGB.map { (Int32(($0 * 1_000_000).rounded()), 1_000_000) }),  // ColorMatrix1
            .rationals(50728, [(1, 1), (1, 1), (1, 1)]),  // AsShotNeutral: grey is grey
            .short(50778, [21]),  // CalibrationIlluminant1: D65
        ]
    }
}

/// One TIFF directory entry with its value encoded little-endian.
struct TIFFEntry {
    let tag: UInt16
    let type: UInt16
    let count: Int
    let value: [UInt8]

    static func bytes(_ tag: UInt16, _ values: [UInt8]) -> TIFFEntry {
        TIFFEntry(tag: tag, type: 1, count: values.count, value: values)
    }

    static func ascii(_ tag: UInt16, _ text: String) -> TIFFEntry {
        let bytes = Array(text.utf8) + [0]
        return TIFFEntry(tag: tag, type: 2, count: bytes.count, value: bytes)
    }

    static func short(_ tag: UInt16, _ values: [UInt16]) -> TIFFEntry {
        TIFFEntry(tag: tag, type: 3, count: values.count, value: values.flatMap { le($0) })
    }

    static func long(_ tag: UInt16, _ values: [UInt32]) -> TIFFEntry {
        TIFFEntry(tag: tag, type: 4, count: values.count, value: values.flatMap { le($0) })
    }

    static func rationals(_ tag: UInt16, _ values: [(UInt32, UInt32)]) -> TIFFEntry {
        TIFFEntry(tag: tag, type: 5, count: values.count, value: values.flatMap { le($0.0) + le($0.1) })
    }

    static func signedRationals(_ tag: UInt16, _ values: [(Int32, Int32)]) -> TIFFEntry {
        TIFFEntry(
            tag: tag,
            type: 10,
            count: values.count,
            value: values.flatMap { le(UInt32(bitPattern: $0.0)) + le(UInt32(bitPattern: $0.1)) }
        )
    }

    /// Bytes of the directory: count, 12-byte entries in tag order, a zero next-IFD
    /// offset, then the values longer than 4 bytes, each on a word boundary.
    static func encodedLength(_ entries: [TIFFEntry]) -> Int {
        entries.reduce(2 + 12 * entries.count + 4) { $0 + ($1.value.count > 4 ? ($1.value.count + 1) & ~1 : 0) }
    }

    static func encode(_ entries: [TIFFEntry], at offset: Int) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var out = le(UInt16(sorted.count))
        var values = [UInt8]()
        let valuesStart = offset + 2 + 12 * sorted.count + 4
        for entry in sorted {
            out += le(entry.tag) + le(entry.type) + le(UInt32(entry.count))
            if entry.value.count <= 4 {
                out += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                out += le(UInt32(valuesStart + values.count))
                values += entry.value
                if values.count % 2 == 1 { values.append(0) }
            }
        }
        return out + le(UInt32(0)) + values
    }

    private static func le(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
}
