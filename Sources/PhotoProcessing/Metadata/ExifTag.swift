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

/// The image file directories photomill reads and writes.
enum ExifIFD {
    case zero, exif, gps
    var raw: ExifIfd {
        switch self {
        case .zero: EXIF_IFD_0
        case .exif: EXIF_IFD_EXIF
        case .gps: EXIF_IFD_GPS
        }
    }
}

/// EXIF tag numbers (EXIF 2.32), named as in the standard.
enum ExifTag {
    static let make: UInt32 = 0x010F
    static let model: UInt32 = 0x0110
    static let orientation: UInt32 = 0x0112
    static let dateTime: UInt32 = 0x0132
    static let exposureTime: UInt32 = 0x829A
    static let fNumber: UInt32 = 0x829D
    static let isoSpeedRatings: UInt32 = 0x8827
    static let dateTimeOriginal: UInt32 = 0x9003
    static let dateTimeDigitized: UInt32 = 0x9004
    static let offsetTime: UInt32 = 0x9010
    static let offsetTimeOriginal: UInt32 = 0x9011
    static let offsetTimeDigitized: UInt32 = 0x9012
    static let shutterSpeedValue: UInt32 = 0x9201
    static let apertureValue: UInt32 = 0x9202
    static let focalLength: UInt32 = 0x920A
    static let lensModel: UInt32 = 0xA434
    static let gpsLatitudeRef: UInt32 = 0x0001
    static let gpsLatitude: UInt32 = 0x0002
    static let gpsLongitudeRef: UInt32 = 0x0003
    static let gpsLongitude: UInt32 = 0x0004
}
