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
import PhotomillTestSupport
import Testing

@testable import PhotoProcessing

/// EXIF laid out as some cameras and tools do it, on JPEGs whose EXIF is written byte by
/// byte here (`HandTIFF`): what libexif 0.6.24 dropped and what maker notes hold. The
/// expected values are the ones written; where exiftool is installed, it is asked too, so
/// a fixture that exiftool would read otherwise cannot pass. Serialized, like
/// MetadataHEIFTests, for the child processes.
@Suite(.serialized) struct MetadataFixtureTests {
    static let exiftoolInstalled = Tool.isAvailable("exiftool")

    /// Entries that every fixture's EXIF IFD carries, in the standard's units.
    static let exposure: [HandTIFF.Entry] = [
        .rational(0x829A, 1, 200),  // ExposureTime 0.005 s
        .rational(0x829D, 28, 10),  // FNumber 2.8
        .short(0x8827, [400]),  // ISO
        .ascii(0x9003, "2021:06:05 14:03:02"),  // DateTimeOriginal
        .rational(0x920A, 50, 1),  // FocalLength 50 mm
    ]

    /// libexif 0.6.24 stops reading a sub-directory at a pointer-type entry (InteropIFD,
    /// thumbnail offset) whose offset lies past the end; here it is the first entry.
    @Test(arguments: [UInt16(0xA005), 0x0201])
    func outOfRangePointerDoesNotHideTheExifIFD(pointerTag: UInt16) throws {
        let tiff = HandTIFF.build(
            ifd0: [.ascii(0x010F, "Maker"), .ascii(0x0110, "Model 1")],
            exif: [.long(pointerTag, 0xFFFF_FF00)] + Self.exposure
        )
        let metadata = try Self.read(jpeg: HandTIFF.jpeg(tiff: tiff))
        Self.expectExposure(metadata)
        #expect(metadata.cameraModel == "Model 1")
        try Self.expectExiftool(
            on: HandTIFF.jpeg(tiff: tiff),
            ["FNumber": "2.8", "ISO": "400", "ExposureTime": "0.005"]
        )
    }

    /// Some cameras write the exposure values in IFD0 only; exiftool reads them there.
    @Test func exposureValuesInIFD0Only() throws {
        let tiff = HandTIFF.build(
            ifd0: [.ascii(0x010F, "Maker")] + Self.exposure,
            exif: [.undefined(0x9000, Array("0230".utf8))]
        )
        let metadata = try Self.read(jpeg: HandTIFF.jpeg(tiff: tiff))
        Self.expectExposure(metadata)
        try Self.expectExiftool(
            on: HandTIFF.jpeg(tiff: tiff),
            ["FNumber": "2.8", "ISO": "400", "DateTimeOriginal": "2021:06:05 14:03:02"]
        )
    }

    /// Canon's ISO when EXIF has none: CameraSettings[16] when it is a number (0x4000 | ISO
    /// or a code 16…20), else BaseISO × AutoISO / 100 from ShotInfo. Hand calculation for
    /// the second: BaseISO 2^(160/32) × 100/32 = 100, AutoISO 2^(32/32) × 100 = 200 → 200.
    @Test(arguments: [
        (cameraISO: UInt16(0x4000 | 320), auto: UInt16(0), base: UInt16(0), expected: 320),
        (cameraISO: 18, auto: 0, base: 0, expected: 200),
        (cameraISO: 15, auto: 32, base: 160, expected: 200),
    ])
    func canonMakerNoteISO(cameraISO: UInt16, auto: UInt16, base: UInt16, expected: Int) throws {
        var settings = [UInt16](repeating: 0, count: 24)
        settings[0] = 48
        settings[16] = cameraISO
        var shot = [UInt16](repeating: 0, count: 20)
        shot[0] = 40
        shot[1] = auto
        shot[2] = base
        let note = HandTIFF.Entry(tag: 0x927C, type: 7, count: 2 + 2 * 12 + 4 + 48 + 40) { [settings, shot] offset in
            HandTIFF.directory(at: offset, [.short(0x0001, settings), .short(0x0004, shot)])
        }
        let exif = Self.exposure.filter { $0.tag != 0x8827 } + [note]
        let tiff = HandTIFF.build(ifd0: [.ascii(0x010F, "Canon"), .ascii(0x0110, "Canon PowerShot S40")], exif: exif)
        let metadata = try Self.read(jpeg: HandTIFF.jpeg(tiff: tiff))
        #expect(metadata.iso == expected)
        try Self.expectExiftool(on: HandTIFF.jpeg(tiff: tiff), ["ISO": "\(expected)"])
    }

    /// The APP12 "[picture info]" segment of the Olympus D-320L, with no EXIF at all:
    /// TimeDate is Unix time (909698819 s = 1998-10-29 22:06:59 UTC), Shutter microseconds.
    @Test func pictureInfoSegment() throws {
        let text =
            "OLYMPUS OPTICAL CO.,LTD.   \0 713\r\n[picture info]\r\nTimeDate=909698819\r\nShutter=33363\r\n"
            + "Flash=1\r\nFNumber=F2.8\r\n[camera info]\r\nType=SR55\r\n[end]\r\n"
        let jpeg = try HandTIFF.jpeg(segment: 0xEC, Array(text.utf8))
        let metadata = try Self.read(jpeg: jpeg)
        #expect(metadata.dateTaken == "1998-10-29T22:06:59")
        #expect(metadata.shutterSpeed.map { abs($0 - 0.033363) < 1e-9 } == true)
        #expect(metadata.aperture == 2.8)
        try Self.expectExiftool(
            on: jpeg,
            ["DateTimeOriginal": "1998:10:29 22:06:59", "ExposureTime": "0.033363", "FNumber": "2.8"]
        )
    }

    /// Nikon's ISO (maker-note tag 0x0002) when EXIF has none: a corpus Nikon with its EXIF
    /// ISO removed by exiftool, compared with what exiftool then reports.
    @Test(.enabled(if: Corpus.isAvailable && exiftoolInstalled, "needs ../shared/corpus and exiftool"))
    func nikonMakerNoteISO() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stripped = directory.appendingPathComponent("nikon.jpg").path
        let source = Corpus.root.appendingPathComponent("photos/87_OSError.jpg").path
        #expect(try Tool.run("exiftool", ["-q", "-EXIF:ISO=", "-o", stripped, source]).status == 0)
        let reported = try Tool.run("exiftool", ["-n", "-s3", "-ISO", stripped]).stdout
        let expected = try #require(
            reported.split(separator: " ").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        )
        #expect(expected == 1000)
        let metadata = try Self.read(jpeg: [UInt8](Data(contentsOf: URL(fileURLWithPath: stripped))))
        #expect(metadata.iso == expected)
    }

    /// Apple's maker-note tag 0x0011, which a Live Photo's still and video share.
    @Test(.enabled(if: Corpus.isAvailable && exiftoolInstalled, "needs ../shared/corpus and exiftool"))
    func appleContentIdentifier() throws {
        let path = Corpus.root.appendingPathComponent("photos/IMG_5195.HEIC").path
        let reported = try ExifTool.value("Apple:MediaGroupUUID", of: path, printed: true)
        #expect(reported.count == 36)
        let metadata = try #require(try MetadataCorpus.metadata(of: "photos/IMG_5195.HEIC"))
        #expect(metadata.contentIdentifier == reported)
        #expect(metadata.mediaType == .photo)
    }

    static func read(jpeg: [UInt8]) throws -> PhotoMetadata {
        try Fixtures.metadata(jpeg, format: .jpeg)
    }

    static func expectExposure(_ metadata: PhotoMetadata, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(metadata.aperture == 2.8, sourceLocation: sourceLocation)
        #expect(metadata.shutterSpeed == 0.005, sourceLocation: sourceLocation)
        #expect(metadata.iso == 400, sourceLocation: sourceLocation)
        #expect(metadata.focalLength == 50, sourceLocation: sourceLocation)
        #expect(metadata.dateTaken == "2021-06-05T14:03:02", sourceLocation: sourceLocation)
    }

    /// exiftool's `-n` values for `tags`, when exiftool is installed.
    static func expectExiftool(
        on jpeg: [UInt8],
        _ tags: [String: String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        guard exiftoolInstalled else { return }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("fixture.jpg")
        try Data(jpeg).write(to: path)
        for (tag, expected) in tags {
            #expect(try ExifTool.value(tag, of: path.path) == expected, "\(tag)", sourceLocation: sourceLocation)
        }
    }
}

/// Little-endian TIFF structures written byte by byte, without the code under test, so
/// that fixtures can hold what cameras write and libexif's writer would not (unsorted
/// entries, pointers out of range, maker notes).
enum HandTIFF {
    struct Entry: Sendable {
        let tag: UInt16
        let type: UInt16
        let count: Int
        /// The value's bytes, given the offset they will be stored at (values over 4 bytes;
        /// a maker note counts its own offsets from the TIFF header).
        let value: @Sendable (Int) -> [UInt8]

        static func ascii(_ tag: UInt16, _ text: String) -> Entry {
            let bytes = Array(text.utf8) + [0]
            return Entry(tag: tag, type: 2, count: bytes.count) { _ in bytes }
        }
        static func short(_ tag: UInt16, _ values: [UInt16]) -> Entry {
            Entry(tag: tag, type: 3, count: values.count) { _ in values.flatMap(le16) }
        }
        static func long(_ tag: UInt16, _ value: UInt32) -> Entry {
            Entry(tag: tag, type: 4, count: 1) { _ in le32(value) }
        }
        static func rational(_ tag: UInt16, _ numerator: UInt32, _ denominator: UInt32) -> Entry {
            Entry(tag: tag, type: 5, count: 1) { _ in le32(numerator) + le32(denominator) }
        }
        static func undefined(_ tag: UInt16, _ bytes: [UInt8]) -> Entry {
            Entry(tag: tag, type: 7, count: bytes.count) { _ in bytes }
        }
        var size: Int { [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1][Int(type)]! * count }
    }

    /// "II*\0", IFD0 at 8 (its entries in the given order, then a pointer to the EXIF IFD
    /// when there is one), the EXIF IFD right after, then the values that do not fit in
    /// their entries.
    static func build(ifd0: [Entry], exif: [Entry]) -> [UInt8] {
        let exifOffset = 8 + 2 + 12 * (ifd0.count + 1) + 4
        let zero = ifd0 + (exif.isEmpty ? [] : [.long(0x8769, UInt32(exifOffset))])
        let dataStart = exifOffset + (exif.isEmpty ? 0 : 2 + 12 * exif.count + 4)
        var data: [UInt8] = []
        var out: [UInt8] = [0x49, 0x49, 0x2A, 0] + le32(8)
        for directory in [zero, exif] where !directory.isEmpty {
            out += le16(UInt16(directory.count))
            for entry in directory {
                out += le16(entry.tag) + le16(entry.type) + le32(UInt32(entry.count))
                if entry.size <= 4 {
                    let value = entry.value(0)
                    out += value + [UInt8](repeating: 0, count: 4 - value.count)
                } else {
                    let at = dataStart + data.count
                    out += le32(UInt32(at))
                    data += entry.value(at)
                    if data.count % 2 == 1 { data.append(0) }
                }
            }
            out += le32(0)
        }
        return out + data
    }

    /// A directory placed at `offset` with its values right after it (a maker note's).
    static func directory(at offset: Int, _ entries: [Entry]) -> [UInt8] {
        var out = le16(UInt16(entries.count))
        var data: [UInt8] = []
        let dataStart = offset + 2 + 12 * entries.count + 4
        for entry in entries {
            out += le16(entry.tag) + le16(entry.type) + le32(UInt32(entry.count))
            if entry.size <= 4 {
                let value = entry.value(0)
                out += value + [UInt8](repeating: 0, count: 4 - value.count)
            } else {
                out += le32(UInt32(dataStart + data.count))
                data += entry.value(dataStart + data.count)
            }
        }
        return out + le32(0) + data
    }

    /// A 16×16 JPEG from the `vips` command with an APP1 EXIF segment holding `tiff`.
    static func jpeg(tiff: [UInt8]) throws -> [UInt8] {
        try jpeg(segment: 0xE1, Array("Exif\0\0".utf8) + tiff)
    }

    /// A 16×16 JPEG from the `vips` command with one more segment after its SOI.
    static func jpeg(segment marker: UInt8, _ payload: [UInt8]) throws -> [UInt8] {
        let image = try plainJPEG()
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + image.dropFirst(2)
    }

    private static func plainJPEG() throws -> [UInt8] {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("plain.jpg").path
        _ = try Tool.run("vips", ["black", path, "16", "16"])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
func le32(_ value: UInt32) -> [UInt8] { [0, 8, 16, 24].map { UInt8(value >> UInt32($0) & 0xFF) } }
