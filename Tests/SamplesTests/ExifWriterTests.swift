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
@testable import Samples

struct ExifWriterTests {
    static let exiftoolInstalled = Tool.path(of: "exiftool") != nil

    /// One set per hemisphere pair, with exposures written both as 1/N and as n/10.
    static let fieldSets: [ExifFields] = {
        var south = ExifFields()
        south.make = "Korvex"
        south.model = "K-7 Mark II"
        south.lensModel = "Korvex 24-70mm F2.8 DG"
        south.dateTimeOriginal = "2019:07:14 18:22:05"
        south.offsetTimeOriginal = "+10:00"
        south.orientation = 6
        south.gpsLatitude = -33.856784
        south.gpsLongitude = 151.215297
        south.fNumber = 2.8
        south.exposureTime = 1.0 / 250
        south.iso = 400
        south.focalLength = 35

        var north = ExifFields()
        north.make = "Fennec"
        north.model = "Fennec Phone 12"
        north.lensModel = "Fennec Phone 12 back camera 4.25mm f/1.8"
        north.dateTimeOriginal = "2008:12:31 23:59:59"
        north.offsetTimeOriginal = "-05:00"
        north.orientation = 3
        north.gpsLatitude = 40.758012
        north.gpsLongitude = -73.985533
        north.fNumber = 1.8
        north.exposureTime = 2.5
        north.iso = 3200
        north.focalLength = 4.25

        var sparse = ExifFields()
        sparse.make = "Lumetra"
        sparse.dateTimeOriginal = "2012:02:29 06:00:00"
        sparse.exposureTime = 0.3
        sparse.orientation = 8
        return [south, north, sparse]
    }()

    /// A small JPEG from libvips, stripped of metadata, then given `fields`.
    static func jpeg(with fields: ExifFields) throws -> [UInt8] {
        let upright = SampleScene(seed: 11).render(width: 48, height: 32)
        let stored = SampleScene.stored(upright, orientation: fields.orientation ?? 1)
        let plain = try SampleGenerator(seed: 0).encode(stored, format: .jpeg, exif: ExifFields())
        return ExifWriter.insert(ExifWriter.payload(fields), intoJPEG: plain)
    }

    static func write(_ bytes: [UInt8], named name: String) throws -> URL {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// A number exiftool gave as a number or as text.
    static func double(_ value: Any?) -> Double? {
        switch value {
        case let number as NSNumber: number.doubleValue
        case let text as String: Double(text)
        default: nil
        }
    }

    static func expectClose(
        _ actual: Any?,
        _ expected: Double?,
        relative: Double = 0.005,
        absolute: Double = 0,
        _ name: String
    ) {
        guard let expected else {
            #expect(actual == nil, "\(name) should be absent")
            return
        }
        guard let value = Self.double(actual) else {
            Issue.record("\(name) missing (expected \(expected))")
            return
        }
        #expect(abs(value - expected) <= max(absolute, abs(expected) * relative), "\(name): \(value) ≠ \(expected)")
    }

    @Test(
        "exiftool reads every field back",
        .enabled(if: exiftoolInstalled, "exiftool is not installed"),
        arguments: fieldSets
    )
    func exiftoolRoundTrip(_ fields: ExifFields) throws {
        let url = try Self.write(try Self.jpeg(with: fields), named: "exif.jpg")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let tags = try ExifTool.values(url.path)

        #expect(tags["Warning"] == nil, "exiftool warns: \(tags["Warning"] ?? "")")
        #expect(tags["Make"] as? String == fields.make)
        #expect(tags["Model"] as? String == fields.model)
        #expect(tags["LensModel"] as? String == fields.lensModel)
        #expect(tags["DateTimeOriginal"] as? String == fields.dateTimeOriginal)
        #expect(tags["ModifyDate"] as? String == fields.dateTimeOriginal, "IFD0 DateTime")
        #expect(tags["OffsetTimeOriginal"] as? String == fields.offsetTimeOriginal)
        #expect((tags["Orientation"] as? NSNumber)?.intValue == fields.orientation)
        #expect((tags["ISO"] as? NSNumber)?.intValue == fields.iso)
        Self.expectClose(tags["GPSLatitude"], fields.gpsLatitude, relative: 0, absolute: 1e-6, "GPSLatitude")
        Self.expectClose(tags["GPSLongitude"], fields.gpsLongitude, relative: 0, absolute: 1e-6, "GPSLongitude")
        Self.expectClose(tags["FNumber"], fields.fNumber, "FNumber")
        Self.expectClose(tags["ExposureTime"], fields.exposureTime, "ExposureTime")
        Self.expectClose(tags["FocalLength"], fields.focalLength, "FocalLength")
        if fields.gpsLatitude != nil {
            #expect(tags["GPSVersionID"] as? String == "2 3 0 0")
            #expect(tags["GPSLatitudeRef"] as? String == (fields.gpsLatitude! < 0 ? "S" : "N"))
            #expect(tags["GPSLongitudeRef"] as? String == (fields.gpsLongitude! < 0 ? "W" : "E"))
        }
    }

    @Test(
        "Exposure times under a second are written as 1/N, others as they are",
        .enabled(if: exiftoolInstalled, "exiftool is not installed")
    )
    func exposureAsPhotographersWriteIt() throws {
        for (seconds, shown) in [(1.0 / 250, "1/250"), (1.0 / 8000, "1/8000"), (0.3, "0.3"), (2.5, "2.5")] {
            var fields = ExifFields()
            fields.exposureTime = seconds
            let url = try Self.write(try Self.jpeg(with: fields), named: "exposure.jpg")
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let output = try Tool.run("exiftool", ["-s3", "-ExposureTime", url.path])
            #expect(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == shown)
        }
        #expect(Rational.exposure(1.0 / 250) == Rational(numerator: 1, denominator: 250))
        #expect(Rational.exposure(0.3) == Rational(numerator: 3, denominator: 10))
        #expect(Rational.dms(-33.856784).map(\.numerator) == [33, 51, 244_224])
    }

    @Test("MetadataReader reads what ExifWriter wrote", arguments: fieldSets)
    func metadataReaderRoundTrip(_ fields: ExifFields) throws {
        let url = try Self.write(try Self.jpeg(with: fields), named: "exif.jpg")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let result = PhotoProcessor().process(path: url.path, kinds: [.metadata])
        #expect(result.errors.isEmpty, "\(result.errors)")
        let metadata = try #require(result.metadata)
        Self.expect(metadata, matches: fields)
        let stored = (fields.orientation ?? 1) >= 5 ? (32, 48) : (48, 32)
        #expect(metadata.pixelWidth == stored.0 && metadata.pixelHeight == stored.1)
    }

    /// Shared with the generator tests: what photomill must report for `fields`.
    static func expect(
        _ metadata: PhotoMetadata,
        matches fields: ExifFields,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(metadata.cameraMake == fields.make, sourceLocation: sourceLocation)
        #expect(metadata.cameraModel == fields.model, sourceLocation: sourceLocation)
        #expect(metadata.lensModel == fields.lensModel, sourceLocation: sourceLocation)
        #expect(metadata.orientation == fields.orientation, sourceLocation: sourceLocation)
        #expect(metadata.iso == fields.iso, sourceLocation: sourceLocation)
        let date = fields.dateTimeOriginal.flatMap(ExifDate.iso8601(fromExif:)).map {
            $0 + (fields.offsetTimeOriginal ?? "")
        }
        #expect(metadata.dateTaken == date, sourceLocation: sourceLocation)
        for (name, actual, expected, tolerance) in [
            ("gpsLatitude", metadata.gpsLatitude, fields.gpsLatitude, 1e-6),
            ("gpsLongitude", metadata.gpsLongitude, fields.gpsLongitude, 1e-6),
            ("aperture", metadata.aperture, fields.fNumber, (fields.fNumber ?? 0) * 0.005),
            ("shutterSpeed", metadata.shutterSpeed, fields.exposureTime, (fields.exposureTime ?? 0) * 0.005),
            ("focalLength", metadata.focalLength, fields.focalLength, (fields.focalLength ?? 0) * 0.005),
        ] {
            if let expected, let actual {
                #expect(
                    abs(actual - expected) <= tolerance,
                    "\(name): \(actual) ≠ \(expected)",
                    sourceLocation: sourceLocation
                )
            } else {
                #expect(
                    actual == nil && expected == nil,
                    "\(name): \(String(describing: actual)) ≠ \(String(describing: expected))",
                    sourceLocation: sourceLocation
                )
            }
        }
    }

    @Test("insert puts one EXIF segment right after SOI and keeps the image")
    func insertPlacement() throws {
        var first = ExifFields()
        first.make = "First"
        var second = ExifFields()
        second.make = "Second"
        let once = try Self.jpeg(with: first)
        let twice = ExifWriter.insert(ExifWriter.payload(second), intoJPEG: once)

        #expect(Array(twice.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xE1])
        let payload = ExifWriter.payload(second)
        #expect(Array(twice[6..<(6 + payload.count)]) == payload)
        let exifHeader = Array("Exif\0\0".utf8)
        let occurrences = (0...(twice.count - exifHeader.count)).filter {
            twice[$0] == 0x45 && Array(twice[$0..<$0 + 6]) == exifHeader
        }
        #expect(occurrences.count == 1, "the old EXIF segment must be gone")
        // Everything after the EXIF segment is the untouched image.
        let oncePayload = ExifWriter.payload(first)
        #expect(Array(twice[(6 + payload.count)...]) == Array(once[(6 + oncePayload.count)...]))

        let url = try Self.write(twice, named: "twice.jpg")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let result = PhotoProcessor().process(path: url.path, kinds: [.metadata, .thumbnail])
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.metadata?.cameraMake == "Second")
    }

    @Test("An empty field set is still a valid EXIF block")
    func emptyPayload() {
        let payload = ExifWriter.payload(ExifFields())
        #expect(payload.starts(with: Array("Exif\0\0II".utf8)))
        #expect(payload.count < 64)
    }

    @Test("TIFF samples carry EXIF in IFD0 and decode", .enabled(if: exiftoolInstalled, "exiftool is not installed"))
    func tiffWithExif() throws {
        let fields = Self.fieldSets[0]
        let upright = SampleScene(seed: 4).render(width: 60, height: 40)
        let stored = SampleScene.stored(upright, orientation: fields.orientation!)
        let url = try Self.write(ExifWriter.tiff(stored, fields: fields), named: "exif.tif")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }

        let tags = try ExifTool.values(url.path)
        #expect(tags["Warning"] == nil, "exiftool warns: \(tags["Warning"] ?? "")")
        #expect(tags["Make"] as? String == fields.make)
        #expect(tags["LensModel"] as? String == fields.lensModel)
        #expect((tags["ImageWidth"] as? NSNumber)?.intValue == 40)
        #expect((tags["ImageHeight"] as? NSNumber)?.intValue == 60)
        Self.expectClose(tags["GPSLatitude"], fields.gpsLatitude, relative: 0, absolute: 1e-6, "GPSLatitude")

        let result = PhotoProcessor().process(path: url.path, kinds: [.metadata, .thumbnail])
        #expect(result.errors.isEmpty, "\(result.errors)")
        Self.expect(try #require(result.metadata), matches: fields)
        #expect(result.thumbnail?.width == 60 && result.thumbnail?.height == 40, "upright after orientation 6")
    }
}
