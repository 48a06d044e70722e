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
import PhotomillCore

/// Kyocera's and Contax's N Digital RAW: a 156-byte big-endian header before the sensor
/// data, laid out as exiftool's KyoceraRaw table documents it (strings stored reversed):
/// 0x0C Model (12 bytes), 0x19 Make (7 bytes, "KYOCERA"), 0x21 DateTimeOriginal
/// (20 bytes), 0x34 ISO (a code: 7 → 25 … 19 → 400), 0x38 ExposureTime (2^(v/8)/16000),
/// 0x58 FNumber (2^(v/16)), 0x70 FocalLength (mm). exiv2 does not read it; LibRaw does,
/// but names the camera "Contax N Digital" where the file says KYOCERA.
struct KyoceraRaw {
    private let header: [UInt8]

    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 156, bytes[25..<32].elementsEqual("ARECOYK".utf8) else { return nil }
        header = Array(bytes.prefix(156))
    }

    private func reversedString(_ at: Int, _ length: Int) -> String? {
        // As exiftool reads it: the field up to its first NUL, then reversed.
        let text = String(decoding: header[at..<(at + length)].prefix { $0 != 0 }.reversed(), as: UTF8.self)
            .trimmingWhitespace
        return text.isEmpty ? nil : text
    }

    private func u32(_ at: Int) -> UInt32 { header[at..<(at + 4)].reduce(0) { $0 << 8 | UInt32($1) } }

    func fill(_ metadata: inout PhotoMetadata) {
        metadata.cameraMake = reversedString(0x19, 7)
        metadata.cameraModel = reversedString(0x0C, 12)
        metadata.dateTaken = reversedString(0x21, 20).flatMap(ExifDate.iso8601(fromExif:))
        let isoCodes: [UInt32: Int] = [
            7: 25, 8: 32, 9: 40, 10: 50, 11: 64, 12: 80, 13: 100, 14: 125, 15: 160,
            16: 200, 17: 250, 18: 320, 19: 400,
        ]
        metadata.iso = isoCodes[u32(0x34)]
        let exposure = u32(0x38)
        let aperture = u32(0x58)
        let focal = u32(0x70)
        if exposure > 0, exposure < 1024 { metadata.shutterSpeed = exp2(Double(exposure) / 8) / 16000 }
        if aperture > 0, aperture < 1024 { metadata.aperture = exp2(Double(aperture) / 16) }
        if focal > 0, focal < 10_000 { metadata.focalLength = Double(focal) }
    }
}
