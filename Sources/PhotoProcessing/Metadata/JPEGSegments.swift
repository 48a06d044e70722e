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

/// The metadata segments of a JPEG file, found by walking its markers up to the image data
/// with every length checked. libexif's own search gives up at the first segment that is
/// not an APPn (a quantisation table before the EXIF, say); exiftool, like this, reads on.
struct JPEGSegments {
    /// The TIFF structure of the first APP1 "Exif\0\0" segment.
    var exif: Range<Int>?
    /// The payload of an APP12 "Picture Info" segment (old Olympus, Agfa, Polaroid cameras).
    var pictureInfo: Range<Int>?
    /// The frame header (SOFn), if one comes before the image data.
    var frame: Frame?

    /// What the frame header says: how the picture is coded and its size.
    struct Frame: Equatable {
        let marker: UInt8
        let precision: Int
        let width: Int
        let height: Int
        let components: Int

        /// Baseline, extended or progressive DCT of 8-bit grey or colour: what libjpeg
        /// decodes with shrink-on-load. Not lossless (SOF3), which also codes camera RAWs'
        /// sensor data, nor arithmetic or hierarchical coding.
        var isDecodable: Bool {
            [0xC0, 0xC1, 0xC2].contains(marker) && precision == 8 && width > 0 && height > 0
                && (components == 1 || components == 3)
        }
    }

    init(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return }
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { return }
            let marker = bytes[at + 1]
            if marker == 0xFF {
                at += 1
                continue
            }  // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                at += 2
                continue
            }  // no length
            if marker == 0xDA || marker == 0xD9 { return }  // image data, end
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { return }
            let payload = (at + 4)..<(at + 2 + length)
            let head = UnsafeRawBufferPointer(rebasing: bytes[payload])
            if marker == 0xE1, exif == nil, head.starts(with: Array("Exif\0\0".utf8)) {
                exif = (payload.lowerBound + 6)..<payload.upperBound
            } else if marker == 0xEC, pictureInfo == nil, !head.starts(with: Array("Ducky".utf8)) {
                pictureInfo = payload
            } else if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker), frame == nil,
                head.count >= 6
            {
                frame = Frame(
                    marker: marker,
                    precision: Int(head[0]),
                    width: Int(head[3]) << 8 | Int(head[4]),
                    height: Int(head[1]) << 8 | Int(head[2]),
                    components: Int(head[5])
                )
            }
            at += 2 + length
        }
    }
}
