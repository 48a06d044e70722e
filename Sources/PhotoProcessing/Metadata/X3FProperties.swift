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

/// Sigma's X3F RAW (Foveon sensors), which neither exiv2 0.27 nor LibRaw 0.20 reads: the
/// header's image size, the property list (`PROP` section: camera make and model, date,
/// exposure, aperture, ISO, focal length) and the embedded JPEG, whose EXIF the camera
/// also wrote. Read as Sigma's "X3F File Format" note describes it (x3f.info), and as
/// exiftool's SigmaRaw module reads it: little-endian throughout; the last four bytes of
/// the file point at a directory (`SECd`: version, count, then 12-byte entries of offset,
/// length and type); a property list (`SECp`: version, count, character format 0 = UCS-2,
/// reserved, length in characters, then (name, value) character offsets, then the
/// characters); a picture section (`SECi`: version, type 2, format 18 = JPEG, then the
/// JPEG after 28 bytes of header). Every offset is checked against the bytes.
struct X3FProperties {
    private(set) var properties: [String: String] = [:]
    private(set) var width: Int?
    private(set) var height: Int?
    /// Where the embedded JPEG (with its EXIF) lies, if the file has one.
    private(set) var embeddedJPEG: Range<Int>?

    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 44, bytes.starts(with: Array("FOVb".utf8)),
            let version = Self.u32(bytes, 4)
        else { return nil }
        // Version 4 and later keep the size at words 10 and 11, earlier ones at 7 and 8.
        let (widthWord, heightWord) = version >> 16 >= 4 ? (10, 11) : (7, 8)
        if let width = Self.u32(bytes, 4 * widthWord), let height = Self.u32(bytes, 4 * heightWord),
            width > 0, height > 0, width < 1 << 20, height < 1 << 20
        {
            self.width = Int(width)
            self.height = Int(height)
        }
        guard let directory = Self.u32(bytes, bytes.count - 4).map(Int.init), directory <= bytes.count - 12,
            bytes[directory..<(directory + 4)].elementsEqual("SECd".utf8),
            let count = Self.u32(bytes, directory + 8), count < 64
        else { return nil }
        var sawProperties = false
        for index in 0..<Int(count) {
            let entry = directory + 12 + 12 * index
            guard let offset = Self.u32(bytes, entry).map(Int.init),
                let length = Self.u32(bytes, entry + 4).map(Int.init),
                entry + 12 <= bytes.count, offset <= bytes.count, length <= bytes.count - offset
            else { break }
            let section = offset..<(offset + length)
            switch String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(entry + 8)..<(entry + 12)]), as: UTF8.self)
            {
            case "PROP":
                if let list = Self.properties(UnsafeRawBufferPointer(rebasing: bytes[section])) {
                    properties.merge(list) { first, _ in first }
                    sawProperties = true
                }
            case "IMAG", "IMA2":
                // A JPEG picture section: "SECi", version, type 2, format 18.
                let header: [UInt8] = Array("SECi".utf8) + [0, 0, 2, 0, 2, 0, 0, 0, 0x12, 0, 0, 0]
                if embeddedJPEG == nil, length > 28 + 4, bytes[offset..<(offset + 16)].elementsEqual(header),
                    bytes[offset + 28] == 0xFF, bytes[offset + 29] == 0xD8
                {
                    embeddedJPEG = (offset + 28)..<section.upperBound
                }
            default:
                break
            }
        }
        guard sawProperties || embeddedJPEG != nil else { return nil }
    }

    /// The `SECp` list as name → value.
    private static func properties(_ section: UnsafeRawBufferPointer) -> [String: String]? {
        guard section.count >= 24, section.starts(with: Array("SECp".utf8)),
            let count = u32(section, 8), let format = u32(section, 12), format == 0,
            let characters = u32(section, 20), count < 4096
        else { return nil }
        let textStart = 24 + 8 * Int(count)
        guard Int(characters) <= (section.count - min(textStart, section.count)) / 2 else { return nil }
        func string(at index: Int) -> String? {
            guard index < Int(characters) else { return nil }
            var units: [UInt16] = []
            var at = textStart + 2 * index
            while at + 1 < textStart + 2 * Int(characters) {
                let unit = UInt16(section[at]) | UInt16(section[at + 1]) << 8
                if unit == 0 { break }
                units.append(unit)
                at += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
        var list: [String: String] = [:]
        for index in 0..<Int(count) {
            guard let name = u32(section, 24 + 8 * index).flatMap({ string(at: Int($0)) }),
                let value = u32(section, 28 + 8 * index).flatMap({ string(at: Int($0)) })
            else { return nil }
            if list[name] == nil { list[name] = value }
        }
        return list
    }

    private static func u32(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> UInt32? {
        guard at >= 0, at <= bytes.count - 4 else { return nil }
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
    }

    /// The fields the property list holds, as exiftool names them: CAMMANUF Make,
    /// CAMMODEL Model, TIME DateTimeOriginal (Unix seconds, shown in UTC), SHUTTER
    /// ExposureTime (seconds), APERTURE FNumber, ISO, FLENGTH FocalLength (mm).
    func fill(_ metadata: inout PhotoMetadata) {
        func number(_ key: String) -> Double? {
            properties[key].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        }
        metadata.cameraMake = properties["CAMMANUF"].flatMap { $0.isEmpty ? nil : $0 }
        metadata.cameraModel = properties["CAMMODEL"].flatMap { $0.isEmpty ? nil : $0 }
        if let seconds = number("TIME"), seconds > 0, seconds < 1e11 {
            metadata.dateTaken = ISO8601Format.utc(Date(timeIntervalSince1970: seconds)).replacingOccurrences(
                of: "Z",
                with: ""
            )
        }
        metadata.shutterSpeed = MetadataReader.positive(number("SHUTTER"))
        metadata.aperture = MetadataReader.positive(number("APERTURE"))
        metadata.iso = MetadataReader.positive(number("ISO")).flatMap { $0 < 1e7 ? Int($0) : nil }
        metadata.focalLength = MetadataReader.positive(number("FLENGTH"))
        metadata.pixelWidth = width
        metadata.pixelHeight = height
    }
}
