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

/// Values that exiftool finds outside the EXIF directories — in maker notes and in
/// vendor segments (`PictureInfo`) — and ranks below EXIF's: `MetadataReader` uses each
/// only when the EXIF directories lack it.
struct VendorValues: Equatable {
    var iso: Int?
    var dateTaken: String?
    var exposureTime: Double?
    var fNumber: Double?
    var focalLength: Double?
    /// The lens a maker note names where exiftool's LensModel comes from (Canon 0x0095,
    /// Olympus Equipment 0x0203).
    var lensModel: String?
    /// Apple's tag 0x0011 (exiftool 12.57 calls it MediaGroupUUID, earlier versions
    /// ContentIdentifier): shared by a Live Photo's still and video.
    var contentIdentifier: String?

    init() {}
}

/// The maker-note values photomill takes where EXIF is silent. exiv2 decodes the maker
/// notes; photomill chooses among their values as exiftool does:
///
/// - ISO: Canon's as exiftool's Composite ISO (CameraSettings' CameraISO when numeric,
///   else BaseISO × AutoISO / 100 from ShotInfo, each 2^(v/32) scaled — exiv2 prints the
///   base alone); Panasonic's (maker note 0x00D1, RW2's IFD0 0x0017), which exiv2's easy
///   access does not look at; else the first maker-note ISO exiv2's easy access finds
///   (Nikon's, Sony's, Pentax's, Olympus', …), as exiv2 prints it.
/// - Reconyx Hyperfire's date and Apple's content identifier, which exiv2 0.27 does not
///   decode, from the maker note's bytes as exiftool's tables place them
///   (lib/Image/ExifTool/Reconyx.pm, Apple.pm).
extension VendorValues {
    init(makerNote exif: Exiv2Metadata, make: String?) {
        self.init()
        iso = Self.canonISO(exif) ?? Self.firstNumber(exif, ["Exif.Panasonic.0x00d1", "Exif.PanasonicRaw.0x0017"])
        if iso == nil, let value = exif.makerNoteNumber(.isoSpeed), value >= 1, value < 1e7 {
            iso = Int(value.rounded())
        }
        fNumber = exif.makerNoteNumber(.fNumber)
        exposureTime = exif.makerNoteNumber(.exposureTime)
        focalLength = exif.makerNoteNumber(.focalLength)
        lensModel = ["Exif.Canon.0x0095", "Exif.OlympusEq.0x0203"].lazy.compactMap { exif.text($0) }.first
        guard let note = exif.bytes("Exif.Photo.MakerNote"), note.count >= 8 else { return }
        note.withUnsafeBytes { note in
            if note.starts(with: Array("Apple iOS\0".utf8)) {
                contentIdentifier = Self.apple(note)
            } else if note.starts(with: [0x01, 0xF1])
                && (make?.uppercased() == "RECONYX" || [2, 3].contains(note[2]) && note[3] == 0)
            {
                dateTaken = Self.reconyxDate(note)
            }
        }
    }

    /// Canon: CameraSettings (exiv2's CanonCs) index 16 is CameraISO: 0x4000 | ISO, or a
    /// code 16…20; else exiftool's Composite ISO from ShotInfo (CanonSi) indices 2 and 1.
    private static func canonISO(_ exif: Exiv2Metadata) -> Int? {
        func signed(_ key: String) -> Int? { exif.numbers(key)?.first.map { Int(Int16(truncatingIfNeeded: Int($0))) } }
        if let camera = signed("Exif.CanonCs.0x0010"), camera != 0x7FFF {
            if camera & 0x4000 != 0, camera & 0x3FFF > 0 { return camera & 0x3FFF }
            if let iso = [16: 50, 17: 100, 18: 200, 19: 400, 20: 800][camera] { return iso }
        }
        guard let baseRaw = signed("Exif.CanonSi.0x0002"), baseRaw != 0, let autoRaw = signed("Exif.CanonSi.0x0001")
        else { return nil }
        let iso = (exp2(Double(baseRaw) / 32) * 100 / 32 * exp2(Double(autoRaw) / 32) * 100 / 100).rounded()
        return iso >= 1 && iso < 1e7 ? Int(iso) : nil
    }

    private static func firstNumber(_ exif: Exiv2Metadata, _ keys: [String]) -> Int? {
        for key in keys {
            if let value = exif.numbers(key)?.first, value >= 1, value <= 0xFFFF_FFF0 { return Int(value) }
        }
        return nil
    }

    /// Fills what is still missing from `other`.
    mutating func merge(_ other: VendorValues) {
        iso = iso ?? other.iso
        dateTaken = dateTaken ?? other.dateTaken
        exposureTime = exposureTime ?? other.exposureTime
        fNumber = fNumber ?? other.fNumber
        focalLength = focalLength ?? other.focalLength
        lensModel = lensModel ?? other.lensModel
        contentIdentifier = contentIdentifier ?? other.contentIdentifier
    }

    /// Reconyx Hyperfire: little-endian shorts; index 0x0B… holds seconds, minutes, hours,
    /// month, day, year (some cameras write them big-endian; exiftool swaps those back).
    private static func reconyxDate(_ note: UnsafeRawBufferPointer) -> String? {
        guard note.count >= 0x0B * 2 + 12 else { return nil }
        var parts: [Int] = (0..<6).map { (index: Int) -> Int in
            let low = Int(note[0x16 + 2 * index])
            let high = Int(note[0x17 + 2 * index])
            return low | high << 8
        }
        if parts[0] & 0xFF00 != 0 && parts[0] & 0xFF == 0 {
            parts = parts.map { (value: Int) -> Int in value >> 8 | (value & 0xFF) << 8 }
        }
        let text = String(
            format: "%04d:%02d:%02d %02d:%02d:%02d",
            parts[5],
            parts[3],
            parts[4],
            parts[2],
            parts[1],
            parts[0]
        )
        return ExifDate.iso8601(fromExif: text)
    }

    /// Apple iOS: "Apple iOS\0", a version, "MM", then a directory at byte 14 whose
    /// offsets count from the maker note's start.
    private static func apple(_ note: UnsafeRawBufferPointer) -> String? {
        guard note.count > 16, note[12] == 0x4D || note[12] == 0x49 else { return nil }
        let tiff = TIFFStructure(bytes: note, bigEndian: note[12] == 0x4D)
        guard let directory = tiff.directory(at: 14), let entry = directory.first(0x0011), entry.type == 2 else {
            return nil
        }
        return tiff.string(entry)
    }
}
