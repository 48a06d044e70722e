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

/// What GoPro cameras write where FFmpeg does not look: the model and the first GPS fix.
/// Read as GoPro's gpmf-parser documentation describes GPMF (KLV: a four-character key, a
/// type character, a structure size, a big-endian repeat count, the data padded to four
/// bytes; type 0 nests) and as exiftool's GoPro module places it:
///
/// - the model: `MINF` in the `udta`/`GPMF` box (HERO6 and later), else the first sample of
///   the `fdsc` track, whose 16 bytes at 0x66 hold it (HERO5);
/// - GPS: the first `GPS5` entry (latitude and longitude as int32, divided by the stream's
///   `SCAL`) of the `gpmd` track's first samples that has a fix (`GPSF` 2 or 3, when given),
///   or the Karma drone's `GPRI` structure (its fields typed by `TYPE`).
///
/// Everything is found through bounds-checked box and sample tables; nothing is read
/// outside the bytes.
struct GoProMetadata: Equatable {
    var model: String?
    var latitude: Double?
    var longitude: Double?

    init?(_ bytes: UnsafeRawBufferPointer) {
        let reader = BMFFReader(bytes: bytes)
        guard let moov = reader.first("moov", in: 0..<bytes.count) else { return nil }
        if let udta = reader.first("udta", in: moov), let gpmf = reader.first("GPMF", in: udta) {
            model =
                Self.klv(UnsafeRawBufferPointer(rebasing: bytes[gpmf])).compactMap { $0.key == "MINF" ? $0.text : nil }
                .first
        }
        for trak in reader.boxes(in: moov) where trak.type == "trak" {
            guard let track = Track(reader, trak.payload) else { continue }
            if track.format == "fdsc", model == nil, let sample = track.samples(limit: 1).first,
                sample.count >= 0x66 + 16, bytes[sample.lowerBound..<(sample.lowerBound + 4)].elementsEqual("GPRO".utf8)
            {
                let text = bytes[(sample.lowerBound + 0x66)..<(sample.lowerBound + 0x66 + 16)].prefix { $0 != 0 }
                let name = String(decoding: text, as: UTF8.self).trimmingWhitespace
                model = name.isEmpty ? nil : name
            }
            if track.format == "gpmd", latitude == nil {
                for sample in track.samples(limit: 16) {
                    if let fix = Self.firstFix(Self.klv(UnsafeRawBufferPointer(rebasing: bytes[sample]))) {
                        (latitude, longitude) = fix
                        break
                    }
                }
            }
        }
        guard model != nil || latitude != nil else { return nil }
    }

    /// One KLV item: its key, type, structure size, repeat count and data (nested items
    /// for type 0).
    struct Item {
        let key: String
        let type: UInt8
        let structureSize: Int
        let repeatCount: Int
        let data: [UInt8]
        let children: [Item]

        var text: String? {
            guard type == UInt8(ascii: "c") else { return nil }
            let value = String(decoding: data.prefix { $0 != 0 }, as: UTF8.self).trimmingWhitespace
            return value.isEmpty ? nil : value
        }

        /// The values as signed or unsigned integers of their type's width, or floats.
        var numbers: [Double] {
            let width: Int
            let read: (ArraySlice<UInt8>) -> Double
            func bigEndian(_ slice: ArraySlice<UInt8>) -> UInt64 { slice.reduce(0) { $0 << 8 | UInt64($1) } }
            switch type {
            case UInt8(ascii: "l"):
                width = 4
                read = { Double(Int32(bitPattern: UInt32(bigEndian($0)))) }
            case UInt8(ascii: "L"):
                width = 4
                read = { Double(UInt32(bigEndian($0))) }
            case UInt8(ascii: "s"):
                width = 2
                read = { Double(Int16(bitPattern: UInt16(bigEndian($0)))) }
            case UInt8(ascii: "S"):
                width = 2
                read = { Double(UInt16(bigEndian($0))) }
            case UInt8(ascii: "b"):
                width = 1
                read = { Double(Int8(bitPattern: $0.first!)) }
            case UInt8(ascii: "B"):
                width = 1
                read = { Double($0.first!) }
            case UInt8(ascii: "f"):
                width = 4
                read = { Double(Float(bitPattern: UInt32(bigEndian($0)))) }
            case UInt8(ascii: "d"):
                width = 8
                read = { Double(bitPattern: bigEndian($0)) }
            default: return []
            }
            return stride(from: 0, to: data.count - width + 1, by: width).map { read(data[$0..<($0 + width)]) }
        }
    }

    /// The items of a KLV stream, nested ones included (to a depth of 4).
    static func klv(_ bytes: UnsafeRawBufferPointer, depth: Int = 0) -> [Item] {
        var items: [Item] = []
        var at = 0
        while at + 8 <= bytes.count, items.count < 4096 {
            let key = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[at..<(at + 4)]), as: UTF8.self)
            let type = bytes[at + 4]
            let size = Int(bytes[at + 5])
            let count = Int(bytes[at + 6]) << 8 | Int(bytes[at + 7])
            let length = size * count
            guard at + 8 + length <= bytes.count else { break }
            let data = UnsafeRawBufferPointer(rebasing: bytes[(at + 8)..<(at + 8 + length)])
            let children = type == 0 && depth < 4 ? klv(data, depth: depth + 1) : []
            items.append(
                Item(
                    key: key,
                    type: type,
                    structureSize: size,
                    repeatCount: count,
                    data: type == 0 ? [] : Array(data),
                    children: children
                )
            )
            at += 8 + (length + 3) / 4 * 4
        }
        return items
    }

    /// The first latitude and longitude of a `GPS5` stream with a fix, scaled by `SCAL`;
    /// else of a `GPRI` stream (the Karma drone's: structures of the types its `TYPE`
    /// string lists, time first, then latitude and longitude, each field scaled by its `SCAL`).
    static func firstFix(_ items: [Item]) -> (Double, Double)? {
        for item in items {
            if let found = firstFix(item.children) { return found }
        }
        if let gpri = items.first(where: { $0.key == "GPRI" }), let found = complexFix(gpri, in: items) { return found }
        guard let gps = items.first(where: { $0.key == "GPS5" }) else { return nil }
        if let fix = items.first(where: { $0.key == "GPSF" })?.numbers.first, fix < 2 { return nil }
        let scale = items.first { $0.key == "SCAL" }?.numbers ?? []
        let values = gps.numbers
        guard values.count >= 2 else { return nil }
        let latitude = values[0] / (scale.first.flatMap { $0 == 0 ? nil : $0 } ?? 1)
        let longitude =
            values[1]
            / (scale.count > 1 ? (scale[1] == 0 ? 1 : scale[1]) : (scale.first.flatMap { $0 == 0 ? nil : $0 } ?? 1))
        guard abs(latitude) <= 90, abs(longitude) <= 180, latitude != 0 || longitude != 0 else { return nil }
        return (latitude, longitude)
    }

    /// Fields 1 and 2 of the first structure of a complex (`?`) item whose `TYPE` gives
    /// each field's type character.
    private static func complexFix(_ item: Item, in items: [Item]) -> (Double, Double)? {
        guard item.type == UInt8(ascii: "?"), let types = items.first(where: { $0.key == "TYPE" })?.data,
            types.count >= 3, item.data.count >= item.structureSize
        else { return nil }
        let widths: [UInt8: Int] = [
            UInt8(ascii: "b"): 1, UInt8(ascii: "B"): 1, UInt8(ascii: "c"): 1, UInt8(ascii: "s"): 2,
            UInt8(ascii: "S"): 2, UInt8(ascii: "l"): 4, UInt8(ascii: "L"): 4, UInt8(ascii: "f"): 4,
            UInt8(ascii: "d"): 8, UInt8(ascii: "j"): 8, UInt8(ascii: "J"): 8,
        ]
        var offsets: [Int] = []
        var at = 0
        for type in types.prefix(3) {
            guard let width = widths[type] else { return nil }
            offsets.append(at)
            at += width
        }
        guard at <= item.structureSize, types[1] == UInt8(ascii: "l"), types[2] == UInt8(ascii: "l") else { return nil }
        func field(_ index: Int) -> Double {
            let bytes = item.data[offsets[index]..<(offsets[index] + 4)]
            return Double(Int32(bitPattern: bytes.reduce(0) { $0 << 8 | UInt32($1) }))
        }
        let scale = items.first { $0.key == "SCAL" }?.numbers ?? []
        func scaled(_ index: Int) -> Double {
            field(index) / (index < scale.count && scale[index] != 0 ? scale[index] : 1)
        }
        let (latitude, longitude) = (scaled(1), scaled(2))
        guard abs(latitude) <= 90, abs(longitude) <= 180, latitude != 0 || longitude != 0 else { return nil }
        return (latitude, longitude)
    }

    /// A track's sample entry format (`stsd`) and where its samples lie (`stsc`, `stsz`,
    /// `stco`/`co64`).
    struct Track {
        let reader: BMFFReader
        let format: String
        private let chunkOffsets: [Int]
        private let sampleSizes: [Int]
        private let samplesPerChunk: [(firstChunk: Int, count: Int)]

        init?(_ reader: BMFFReader, _ trak: Range<Int>) {
            self.reader = reader
            guard let mdia = reader.first("mdia", in: trak), let minf = reader.first("minf", in: mdia),
                let stbl = reader.first("stbl", in: minf), let stsd = reader.first("stsd", in: stbl),
                stsd.count >= 16
            else { return nil }
            format = String(
                decoding: UnsafeRawBufferPointer(
                    rebasing: reader.bytes[(stsd.lowerBound + 12)..<(stsd.lowerBound + 16)]
                ),
                as: UTF8.self
            )
            func table(_ type: String, width: Int) -> [Int] {
                guard let box = reader.first(type, in: stbl), let count = reader.uint32(at: box.lowerBound + 4) else {
                    return []
                }
                return (0..<min(Int(count), 1024)).compactMap {
                    reader.unsigned(at: box.lowerBound + 8 + width * $0, length: width).map { Int(clamping: $0) }
                }
            }
            chunkOffsets = reader.first("co64", in: stbl) != nil ? table("co64", width: 8) : table("stco", width: 4)
            if let stsz = reader.first("stsz", in: stbl), let fixed = reader.uint32(at: stsz.lowerBound + 4),
                let count = reader.uint32(at: stsz.lowerBound + 8)
            {
                sampleSizes =
                    fixed > 0
                    ? Array(repeating: Int(fixed), count: min(Int(count), 1024))
                    : (0..<min(Int(count), 1024)).compactMap {
                        reader.uint32(at: stsz.lowerBound + 12 + 4 * $0).map(Int.init)
                    }
            } else {
                sampleSizes = []
            }
            var runs: [(firstChunk: Int, count: Int)] = []
            if let stsc = reader.first("stsc", in: stbl), let count = reader.uint32(at: stsc.lowerBound + 4) {
                for index in 0..<min(Int(count), 1024) {
                    guard let first = reader.uint32(at: stsc.lowerBound + 8 + 12 * index),
                        let perChunk = reader.uint32(at: stsc.lowerBound + 12 + 12 * index)
                    else { break }
                    runs.append((Int(first), Int(perChunk)))
                }
            }
            samplesPerChunk = runs
        }

        /// The byte ranges of the first `limit` samples that lie inside the file.
        func samples(limit: Int) -> [Range<Int>] {
            var result: [Range<Int>] = []
            var sample = 0
            for (chunkIndex, offset) in chunkOffsets.enumerated() {
                let chunk = chunkIndex + 1
                let perChunk = samplesPerChunk.last { $0.firstChunk <= chunk }?.count ?? 1
                var at = offset
                for _ in 0..<min(perChunk, 1024) {
                    guard sample < sampleSizes.count, result.count < limit else { return result }
                    let size = sampleSizes[sample]
                    guard at >= 0, size >= 0, at <= reader.bytes.count - size else { return result }
                    result.append(at..<(at + size))
                    at += size
                    sample += 1
                }
            }
            return result
        }
    }
}
