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

/// The JPEG previews every Canon CR3 carries, found from its ISO base media boxes as Laurent
/// Clévy's description of the format (github.com/lclevy/canon_cr3) and exiftool
/// (Canon.pm, QuickTime.pm) read them — whatever the body, so that a CR3 from a camera
/// LibRaw 0.20 does not know (EOS R5, R6, R7, R10…) still gets its thumbnail:
///
/// - **THMB**, 160×120, in the Canon `uuid` box (85c0b687-820f-11e0-8111-f4ce462b6a48)
///   inside `moov`: width and height at 4 and 6 of its payload, the JPEG's length at 8,
///   the JPEG at 16;
/// - **PRVW**, about 1620×1080, in the top-level `uuid` box
///   eaf42b5e-1c98-4b88-b9fb-b7dc406e4d16: after 8 bytes of its own, a `PRVW` box whose
///   payload has the width and height at 6 and 8, the JPEG's length at 12, the JPEG at 16;
/// - **the full-size JPEG**, the one sample of the track whose sample entry (`CRAW`)
///   holds a `JPEG` box: its size from the sample entry, its bytes where `co64` (or
///   `stco`) and `stsz` say.
///
/// The orientation is IFD0's (CMT1), as for the other RAWs: previews are stored as the
/// sensor saw them. The image size, for the pixel limit, is the largest `CRAW` sample
/// entry's (the sensor image's track).
enum CR3Previews {
    static let canonBox: [UInt8] = [
        0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
    ]
    static let previewBox: [UInt8] = [
        0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16,
    ]

    /// `moov` is read whole up to this size (tens of kilobytes in the CR3s described).
    static let movieLimit = 8 << 20
    /// Top-level boxes looked at, at most.
    static let boxLimit = 64

    /// The previews of the CR3 `bytes`, or nil when it has no `moov` box to find them in.
    static func find(in bytes: RawBytes) -> EmbeddedPreviews? {
        var previews: [EmbeddedPreviews.Preview] = []
        var orientation = 1
        var imageSize: (width: Int, height: Int)?
        var foundMovie = false
        for box in topLevelBoxes(bytes) {
            switch box.type {
            case "moov" where !foundMovie && box.range.count <= movieLimit:
                foundMovie = true
                let movie = bytes.withBytes(box.range) { moov in
                    readMovie(moov, at: box.range.lowerBound, fileSize: bytes.count)
                }
                guard let movie else { continue }
                previews += movie.previews
                orientation = movie.orientation
                imageSize = movie.imageSize
            case "uuid" where box.uuid == previewBox:
                if let preview = bytes.withBytes(
                    box.payload.lowerBound..<min(box.payload.upperBound, box.payload.lowerBound + 32),
                    { readPRVW($0, at: box.payload.lowerBound, end: box.payload.upperBound) }
                ) ?? nil {
                    previews.append(preview)
                }
            default:
                continue
            }
        }
        guard foundMovie else { return nil }
        return EmbeddedPreviews(
            previews: previews.filter { !$0.range.isEmpty && $0.range.upperBound <= bytes.count },
            orientation: orientation,
            imageSize: imageSize
        )
    }

    struct TopLevelBox {
        let type: String
        let uuid: [UInt8]?
        /// The whole box, cut to the file.
        let range: Range<Int>
        /// After the size, type and extended type.
        let payload: Range<Int>
    }

    /// The file's top-level boxes, read header by header (a CR3's `mdat` is most of the
    /// file: only the headers are read).
    static func topLevelBoxes(_ bytes: RawBytes) -> [TopLevelBox] {
        var boxes: [TopLevelBox] = []
        var at = 0
        while at + 8 <= bytes.count, boxes.count < boxLimit {
            let header = bytes.withBytes(at..<min(bytes.count, at + 32)) { Array($0) } ?? []
            guard header.count >= 8 else { break }
            let reader = header.withUnsafeBytes { BMFFReader(bytes: $0).unsigned(at: 0, length: 4) }
            var size = Int(reader ?? 0)
            var headerLength = 8
            if size == 1 {
                guard header.count >= 16 else { break }
                let large = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard large <= UInt64(Int.max) else { break }
                size = Int(large)
                headerLength = 16
            } else if size == 0 {
                size = bytes.count - at
            }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            var uuid: [UInt8]?
            if type == "uuid" {
                guard header.count >= headerLength + 16 else { break }
                uuid = Array(header[headerLength..<(headerLength + 16)])
                headerLength += 16
            }
            guard size >= headerLength else { break }
            let end = size > bytes.count - at ? bytes.count : at + size
            boxes.append(TopLevelBox(type: type, uuid: uuid, range: at..<end, payload: (at + headerLength)..<end))
            at = end
        }
        return boxes
    }

    /// THMB, the full-size JPEG track, IFD0's orientation and the largest track's size,
    /// from `moov` (its payload and header in `moov`; `origin`: where it starts in the file).
    static func readMovie(
        _ moov: UnsafeRawBufferPointer,
        at origin: Int,
        fileSize: Int
    ) -> (previews: [EmbeddedPreviews.Preview], orientation: Int, imageSize: (width: Int, height: Int)?) {
        let reader = BMFFReader(bytes: moov)
        var previews: [EmbeddedPreviews.Preview] = []
        var orientation = 1
        var largest: (width: Int, height: Int)?
        let children = reader.boxes(in: reader.boxes(in: 0..<moov.count).first?.payload ?? 0..<0)
        if let canon = children.first(where: { $0.type == "uuid" && $0.uuid == canonBox }) {
            for block in reader.boxes(in: canon.payload) {
                if block.type == "THMB", let preview = readTHMB(reader, block.payload, origin: origin) {
                    previews.append(preview)
                }
                if block.type == "CMT1",
                    let tiff = TIFFStructure(header: UnsafeRawBufferPointer(rebasing: moov[block.payload])),
                    let ifd0 = tiff.directory(at: tiff.firstDirectoryOffset),
                    let value = ifd0.first(0x0112).flatMap({ tiff.integers($0)?.first }), (1...8).contains(value)
                {
                    orientation = value
                }
            }
        }
        for track in children where track.type == "trak" {
            guard let entry = sampleEntry(reader, track.payload) else { continue }
            if entry.width * entry.height > (largest.map { $0.width * $0.height } ?? 0) {
                largest = (entry.width, entry.height)
            }
            guard entry.isJPEG, let range = firstSample(reader, entry.table) else { continue }
            previews.append(
                EmbeddedPreviews.Preview(
                    range: range,
                    encoding: .jpeg,
                    size: EmbeddedPreviews.Preview.Size(width: entry.width, height: entry.height)
                )
            )
        }
        return (previews, orientation, largest)
    }

    /// THMB's JPEG (width and height at 4 and 6, length at 8, data at 16).
    private static func readTHMB(_ reader: BMFFReader, _ payload: Range<Int>, origin: Int) -> EmbeddedPreviews.Preview?
    {
        guard let width = reader.uint16(at: payload.lowerBound + 4),
            let height = reader.uint16(at: payload.lowerBound + 6),
            let length = reader.uint32(at: payload.lowerBound + 8)
        else { return nil }
        let start = payload.lowerBound + 16
        guard Int(length) <= payload.upperBound - start else { return nil }
        return EmbeddedPreviews.Preview(
            range: (origin + start)..<(origin + start + Int(length)),
            encoding: .jpeg,
            size: size(width, height)
        )
    }

    /// PRVW's JPEG, from the first bytes of the preview `uuid` box's payload (`head`,
    /// found at `at`; the box ends at `end`): 8 bytes, the PRVW box's header, then width
    /// and height at 6 and 8 of its payload, the length at 12, the JPEG at 16.
    static func readPRVW(_ head: UnsafeRawBufferPointer, at: Int, end: Int) -> EmbeddedPreviews.Preview? {
        let reader = BMFFReader(bytes: head)
        guard head.count >= 32, head[12..<16].elementsEqual("PRVW".utf8),
            let width = reader.uint16(at: 16 + 6), let height = reader.uint16(at: 16 + 8),
            let length = reader.uint32(at: 16 + 12)
        else { return nil }
        let start = at + 32
        guard Int(length) <= end - start else { return nil }
        return EmbeddedPreviews.Preview(
            range: start..<(start + Int(length)),
            encoding: .jpeg,
            size: size(width, height)
        )
    }

    private static func size(_ width: UInt16, _ height: UInt16) -> EmbeddedPreviews.Preview.Size? {
        width > 0 && height > 0 ? EmbeddedPreviews.Preview.Size(width: Int(width), height: Int(height)) : nil
    }

    /// A track's first sample entry when it is Canon's `CRAW`: its size, whether it holds
    /// a `JPEG` box, and the track's sample table (`stbl`).
    private static func sampleEntry(
        _ reader: BMFFReader,
        _ track: Range<Int>
    ) -> (width: Int, height: Int, isJPEG: Bool, table: Range<Int>)? {
        guard let media = reader.first("mdia", in: track), let information = reader.first("minf", in: media),
            let table = reader.first("stbl", in: information), let descriptions = reader.first("stsd", in: table),
            let entry = reader.boxes(in: reader.span(descriptions.lowerBound + 8, descriptions.upperBound)).first,
            entry.type == "CRAW",
            let width = reader.uint16(at: entry.payload.lowerBound + 24),
            let height = reader.uint16(at: entry.payload.lowerBound + 26)
        else { return nil }
        // A visual sample entry's fields take 78 bytes; its boxes follow.
        let boxes = reader.boxes(in: reader.span(entry.payload.lowerBound + 78, entry.payload.upperBound))
        return (Int(width), Int(height), boxes.contains { $0.type == "JPEG" }, table)
    }

    /// The byte range of a track's first sample: its chunk's offset (`co64` or `stco`) and
    /// its size (`stsz`).
    private static func firstSample(_ reader: BMFFReader, _ table: Range<Int>) -> Range<Int>? {
        guard let sizes = reader.first("stsz", in: table), let fixed = reader.uint32(at: sizes.lowerBound + 4) else {
            return nil
        }
        var size = Int(fixed)
        if size == 0 {
            guard let count = reader.uint32(at: sizes.lowerBound + 8), count > 0,
                let first = reader.uint32(at: sizes.lowerBound + 12)
            else { return nil }
            size = Int(first)
        }
        let offset: UInt64?
        if let chunks = reader.first("co64", in: table) {
            offset = reader.uint32(at: chunks.lowerBound + 4).flatMap {
                $0 > 0 ? reader.uint64(at: chunks.lowerBound + 8) : nil
            }
        } else if let chunks = reader.first("stco", in: table) {
            offset = reader.uint32(at: chunks.lowerBound + 4).flatMap {
                $0 > 0 ? reader.uint32(at: chunks.lowerBound + 8).map(UInt64.init) : nil
            }
        } else {
            offset = nil
        }
        guard let offset, size > 0, offset <= UInt64(Int.max - size) else { return nil }
        return Int(offset)..<(Int(offset) + size)
    }
}
