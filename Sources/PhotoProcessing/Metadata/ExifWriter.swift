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

import CExif
import Foundation

/// Writes EXIF with libexif, for sample files and test fixtures.
public enum ExifWriter {
    /// The body of a JPEG APP1 segment: "Exif\0\0" and a little-endian TIFF structure
    /// with IFD0 (Make, Model, Orientation, DateTime), the EXIF IFD and the GPS IFD.
    public static func payload(_ fields: ExifFields) -> [UInt8] {
        let builder = ExifBuilder()
        add(fields, to: builder)
        return builder.save()
    }

    /// `jpeg` with an APP1 segment holding `payload` right after SOI. Existing EXIF APP1
    /// segments are dropped, so a JPEG never carries two EXIF blocks that disagree.
    /// - Precondition: `jpeg` starts with SOI and `payload` fits one segment (≤ 65533 bytes).
    public static func insert(_ payload: [UInt8], intoJPEG jpeg: [UInt8]) -> [UInt8] {
        precondition(jpeg.count >= 2 && jpeg[0] == 0xFF && jpeg[1] == 0xD8, "not a JPEG (no SOI marker)")
        let length = payload.count + 2
        precondition(length <= 0xFFFF, "EXIF payload of \(payload.count) bytes does not fit one APP1 segment")

        var out: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]
        out.reserveCapacity(jpeg.count + length + 2)
        out.append(contentsOf: payload)

        // EXIF lives in the APPn segments that lead the file; the first other marker
        // (DQT, SOF…) starts data we copy untouched.
        var index = 2
        while index + 4 <= jpeg.count, jpeg[index] == 0xFF, (0xE0...0xEF).contains(jpeg[index + 1]) {
            let end = index + 2 + (Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3]))
            guard end <= jpeg.count else { break }
            let isExif =
                jpeg[index + 1] == 0xE1 && end - index >= 10
                && jpeg[(index + 4)..<(index + 10)].elementsEqual("Exif\0\0".utf8)
            if !isExif { out.append(contentsOf: jpeg[index..<end]) }
            index = end
        }
        out.append(contentsOf: jpeg[index...])
        return out
    }

    static func add(_ fields: ExifFields, to builder: ExifBuilder) {
        if let make = fields.make { builder.ascii(.zero, ExifTag.make, make) }
        if let model = fields.model { builder.ascii(.zero, ExifTag.model, model) }
        if let orientation = fields.orientation {
            builder.shorts(.zero, ExifTag.orientation, [UInt16(clamping: orientation)])
        }
        if let date = fields.dateTimeOriginal { builder.ascii(.zero, ExifTag.dateTime, date) }

        let exifIFD =
            [fields.dateTimeOriginal, fields.offsetTimeOriginal, fields.lensModel].contains { $0 != nil }
            || [fields.fNumber, fields.exposureTime, fields.focalLength].contains { $0 != nil } || fields.iso != nil
        if exifIFD {
            // Readers (exiftool among them) warn about an EXIF IFD without a version.
            builder.bytes(.exif, exifVersion, Array("0232".utf8), format: EXIF_FORMAT_UNDEFINED)
        }
        if let date = fields.dateTimeOriginal { builder.ascii(.exif, ExifTag.dateTimeOriginal, date) }
        if let offset = fields.offsetTimeOriginal { builder.ascii(.exif, ExifTag.offsetTimeOriginal, offset) }
        if let fNumber = fields.fNumber {
            builder.rationals(.exif, ExifTag.fNumber, [Rational(fNumber, denominator: 100)])
        }
        if let exposure = fields.exposureTime { builder.rationals(.exif, ExifTag.exposureTime, [.exposure(exposure)]) }
        if let iso = fields.iso { builder.shorts(.exif, ExifTag.isoSpeedRatings, [UInt16(clamping: iso)]) }
        if let focal = fields.focalLength {
            builder.rationals(.exif, ExifTag.focalLength, [Rational(focal, denominator: 100)])
        }
        if let lens = fields.lensModel { builder.ascii(.exif, ExifTag.lensModel, lens) }

        if let latitude = fields.gpsLatitude, let longitude = fields.gpsLongitude {
            builder.bytes(.gps, gpsVersionID, [2, 3, 0, 0])
            builder.ascii(.gps, ExifTag.gpsLatitudeRef, latitude < 0 ? "S" : "N")
            builder.rationals(.gps, ExifTag.gpsLatitude, Rational.dms(latitude))
            builder.ascii(.gps, ExifTag.gpsLongitudeRef, longitude < 0 ? "W" : "E")
            builder.rationals(.gps, ExifTag.gpsLongitude, Rational.dms(longitude))
        }
    }

    private static let exifVersion: UInt32 = 0x9000
    private static let gpsVersionID: UInt32 = 0x0000
}
