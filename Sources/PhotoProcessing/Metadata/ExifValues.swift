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

/// Typed EXIF values by directory and tag: a file's as exiv2 read them (`Exiv2Metadata`),
/// or a CR3's three blocks (`CR3Exif`). `MetadataReader.fill` turns them into
/// `PhotoMetadata`.
protocol ExifValues {
    /// An ASCII (or UNDEFINED) value up to its first NUL, trimmed; nil when absent or blank.
    func string(_ ifd: ExifIFD, _ tag: UInt32) -> String?
    /// The numeric components; nil when absent, not numeric, or a zero denominator.
    func numbers(_ ifd: ExifIFD, _ tag: UInt32) -> [Double]?
}

extension ExifValues {
    func number(_ ifd: ExifIFD, _ tag: UInt32) -> Double? { numbers(ifd, tag)?.first }
}

extension Exiv2Metadata: ExifValues {
    func string(_ ifd: ExifIFD, _ tag: UInt32) -> String? { text(Self.key(ifd, tag)) }
    func numbers(_ ifd: ExifIFD, _ tag: UInt32) -> [Double]? { numbers(Self.key(ifd, tag)) }

    /// exiv2's key for a tag of a directory: "Exif.Image.0x010f" (exiv2 takes the number
    /// wherever it takes a tag's name).
    static func key(_ ifd: ExifIFD, _ tag: UInt32) -> String {
        let group =
            switch ifd {
            case .zero: "Image"
            case .exif: "Photo"
            case .gps: "GPSInfo"
            }
        let hex = String(tag, radix: 16)
        return "Exif.\(group).0x" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
