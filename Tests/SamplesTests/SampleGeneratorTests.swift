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

struct SampleGeneratorTests {
    static let vipsInstalled = Tool.path(of: "vips") != nil
    static let tesseractInstalled = Tool.path(of: "tesseract") != nil

    /// Small versions of the first file of each format and of a text page.
    static func smallSpecs(seed: UInt64) -> [SampleSpec] {
        let specs = SampleGenerator(seed: seed, maxSide: 160).plan(count: 24)
        var chosen: [SampleSpec] = []
        for format in SampleFormat.allCases {
            if let photo = specs.first(where: { $0.format == format && $0.text == nil && $0.broken == nil }) {
                chosen.append(photo)
            }
        }
        if let page = specs.first(where: { $0.text != nil }) { chosen.append(page) }
        if let truncated = specs.first(where: { $0.broken == "truncated" }) { chosen.append(truncated) }
        return chosen
    }

    // MARK: Determinism

    @Test("The same seed renders the same bytes")
    func sameSeedSameBytes() throws {
        let specs = Self.smallSpecs(seed: 42)
        #expect(Set(specs.map(\.format)) == Set(SampleFormat.allCases))
        #expect(specs == Self.smallSpecs(seed: 42))
        for spec in specs {
            let first = try SampleGenerator(seed: 42).render(spec)
            let second = try SampleGenerator(seed: 42).render(spec)
            #expect(!first.isEmpty)
            #expect(first == second, "\(spec.file) differs between two renderings")
        }
    }

    @Test("Different seeds give different plans and pictures")
    func differentSeedsDiffer() throws {
        let one = SampleGenerator(seed: 1).plan(count: 40)
        let two = SampleGenerator(seed: 2).plan(count: 40)
        #expect(one != two)
        #expect(one.map(\.exif) != two.map(\.exif))
        let a = try #require(Self.smallSpecs(seed: 1).first)
        let b = try #require(Self.smallSpecs(seed: 2).first)
        #expect(a.scene != b.scene)
        var sameSize = b
        (sameSize.width, sameSize.height, sameSize.orientation) = (a.width, a.height, a.orientation)
        #expect(try SampleGenerator(seed: 1).render(a) != SampleGenerator(seed: 2).render(sameSize))
    }

    // MARK: The plan

    @Test("A plan of 40 covers orientations, hemispheres, formats, text and breakage")
    func planCoverage() throws {
        let specs = SampleGenerator(seed: 1).plan(count: 40)
        #expect(specs.count == 40)
        #expect(Set(specs.map(\.file)).count == 40, "file names are unique")
        let good = specs.filter { $0.broken == nil }
        #expect(Set(good.map(\.orientation)) == Set(1...8))
        #expect(Set(good.map(\.format)) == Set(SampleFormat.allCases))
        #expect(good.filter { $0.format == .jpeg }.count * 2 > specs.count, "mostly JPEG")

        let signs = Set(
            good.compactMap { spec -> String? in
                guard let lat = spec.exif.gpsLatitude, let lon = spec.exif.gpsLongitude else { return nil }
                return (lat < 0 ? "S" : "N") + (lon < 0 ? "W" : "E")
            }
        )
        #expect(signs == ["NE", "NW", "SE", "SW"])
        #expect(good.contains { $0.text == nil && $0.exif.gpsLatitude == nil }, "some photos have no GPS")
        #expect(
            good.contains { $0.exif.offsetTimeOriginal != nil } && good.contains { $0.exif.offsetTimeOriginal == nil }
        )
        #expect(Set(good.compactMap(\.exif.make)).count >= 5)
        #expect(Set(good.compactMap { $0.exif.dateTimeOriginal?.prefix(4) }).count >= 5, "dates spread over years")

        let pages = good.filter { $0.text != nil }
        #expect((4...9).contains(pages.count), "about one in six is a text page, found \(pages.count)")
        #expect(pages.allSatisfy { $0.file.hasPrefix("SCAN_") && ($0.text?.count ?? 0) > 40 })
        #expect(Set(specs.compactMap(\.broken)) == ["truncated", "text", "garbled", "empty"])
        // Named .jpg but not media: the scan fails them by name (samples.json says with which class).
        #expect(Set(specs.filter { $0.scanFails != nil }.compactMap(\.broken)) == ["text", "empty"])
        #expect(Set(specs.compactMap(\.scanFails)) == ["not-an-image", "empty"])
        #expect(
            specs.filter { $0.broken != nil }.allSatisfy {
                $0.file.hasPrefix("broken_\($0.broken!)_") && $0.file.hasSuffix(".jpg")
            }
        )

        let megapixels = good.map { Double($0.width * $0.height) / 1e6 }
        #expect(megapixels.allSatisfy { $0 >= 0.28 && $0 <= 12 })
        #expect((1...8).contains(megapixels.filter { $0 == 12 }.count))
        #expect(megapixels.reduce(0, +) / Double(megapixels.count) < 4, "the average stays modest")
        for spec in good {
            #expect(spec.exif.orientation == spec.orientation, "\(spec.file)")
            let upright = spec.uprightSize
            #expect(spec.text == nil || upright.height > upright.width, "\(spec.file): pages are portrait")
        }
    }

    @Test("Broken files appear from ten files on", arguments: [(9, 0), (10, 4), (50, 5), (130, 7)])
    func brokenCounts(count: Int, broken: Int) {
        let specs = SampleGenerator(seed: 5).plan(count: count)
        #expect(specs.filter { $0.broken != nil }.count == broken)
    }

    // MARK: Pictures

    @Test("Corner markers are solid and where they belong")
    func cornerMarkers() {
        let image = SampleScene(seed: 9).render(width: 50, height: 40)
        #expect(SampleScene.markerSide(width: 50, height: 40) == 8)
        for (x, y, colour) in [
            (0, 0, SampleScene.topLeft), (7, 7, SampleScene.topLeft), (49, 0, SampleScene.topRight),
            (42, 7, SampleScene.topRight), (0, 39, SampleScene.bottomLeft), (49, 39, SampleScene.bottomRight),
        ] {
            #expect(image[x: x, y: y] == colour, "(\(x), \(y))")
        }
        #expect(image[x: 8, y: 8] != SampleScene.topLeft)
    }

    @Test("stored() follows the EXIF formulas", arguments: 1...8)
    func storedFormulas(orientation: Int) {
        let W = 7
        let H = 4
        let upright = RGBImage(width: W, height: H, pixels: (0..<W * H * 3).map { UInt8($0 % 251) })
        let stored = SampleScene.stored(upright, orientation: orientation)
        #expect(orientation >= 5 ? (stored.width, stored.height) == (H, W) : (stored.width, stored.height) == (W, H))
        for y in 0..<stored.height {
            for x in 0..<stored.width {
                let (ux, uy) =
                    switch orientation {
                    case 1: (x, y)
                    case 2: (W - 1 - x, y)
                    case 3: (W - 1 - x, H - 1 - y)
                    case 4: (x, H - 1 - y)
                    case 5: (y, x)
                    case 6: (W - 1 - y, x)
                    case 7: (W - 1 - y, H - 1 - x)
                    default: (y, H - 1 - x)
                    }
                #expect(stored[x: x, y: y] == upright[x: ux, y: uy])
            }
        }
    }

    /// (format, orientation) pairs: every orientation in JPEG, some in PNG and TIFF,
    /// HEIC upright (its EXIF orientation is not applied by HEIF readers).
    static let orientationCases: [(SampleFormat, Int)] =
        (1...8).map { (.jpeg, $0) } + [(.png, 3), (.png, 6), (.tiff, 5), (.tiff, 8), (.heic, 1)]

    @Test(
        "libvips' autorotate turns every stored layout upright",
        .enabled(if: vipsInstalled, "the vips command is not installed"),
        arguments: orientationCases
    )
    func orientationThroughVips(format: SampleFormat, orientation: Int) throws {
        let upright = (width: 120, height: 80)
        var exif = ExifFields()
        exif.make = "Korvex"
        exif.orientation = orientation
        let stored = orientation >= 5 ? (upright.height, upright.width) : upright
        let spec = SampleSpec(
            file: "o\(orientation).\(format.fileExtension)",
            format: format,
            width: stored.0,
            height: stored.1,
            orientation: orientation,
            exif: exif,
            scene: 21
        )
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(spec.file)
        let ppm = folder.appendingPathComponent("upright.ppm")
        try Data(SampleGenerator(seed: 0).render(spec)).write(to: file)

        // An independent reader: the vips command's thumbnail applies the orientation.
        let output = try Tool.run("vips", ["thumbnail", file.path, ppm.path, "120"])
        #expect(output.status == 0, "vips thumbnail failed: \(output.stderr)")
        let image = try Self.readPPM(ppm)
        #expect(image.width == upright.width && image.height == upright.height)

        let inset = SampleScene.markerSide(width: upright.width, height: upright.height) / 2
        for (x, y, colour) in [
            (inset, inset, SampleScene.topLeft), (image.width - 1 - inset, inset, SampleScene.topRight),
            (inset, image.height - 1 - inset, SampleScene.bottomLeft),
            (image.width - 1 - inset, image.height - 1 - inset, SampleScene.bottomRight),
        ] {
            let pixel = image[x: x, y: y]
            let distance = [(pixel.red, colour.red), (pixel.green, colour.green), (pixel.blue, colour.blue)]
                .map { abs(Int($0) - Int($1)) }.max()!
            #expect(distance < 48, "\(format) orientation \(orientation): (\(x), \(y)) is \(pixel), expected \(colour)")
        }
    }

    /// Binary PPM (P6), as `vips` writes it.
    static func readPPM(_ url: URL) throws -> RGBImage {
        let bytes = [UInt8](try Data(contentsOf: url))
        var fields: [Int] = []
        var index = 2
        #expect(bytes.starts(with: Array("P6".utf8)))
        while fields.count < 3, index < bytes.count {
            if bytes[index] == UInt8(ascii: "#") {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            } else if (0x30...0x39).contains(bytes[index]) {
                var value = 0
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                    value = value * 10 + Int(bytes[index] - 0x30)
                    index += 1
                }
                fields.append(value)
                continue
            }
            index += 1
        }
        index += 1  // the single whitespace after the maximum value
        let (width, height) = (fields[0], fields[1])
        return RGBImage(width: width, height: height, pixels: Array(bytes[index..<(index + width * height * 3)]))
    }

    @Test("Text pages are readable by tesseract", .enabled(if: tesseractInstalled, "tesseract is not installed"))
    func textPageIsReadable() throws {
        let sentence = "The quick brown fox jumps over the lazy dog."
        let page = try SampleScene.textPage(sentence, width: 1000)
        #expect(page.width == 1000 && page.height < 300)
        #expect(page[x: 0, y: 0] == RGBImage.Pixel(red: 255, green: 255, blue: 255))
        #expect(page.pixels.contains(0), "some ink is fully black")

        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("page.png")
        try Data(SampleGenerator(seed: 0).encode(page, format: .png, exif: ExifFields())).write(to: file)
        let output = try Tool.run("tesseract", [file.path, "-"], environment: ["OMP_THREAD_LIMIT": "1"])
        let text = output.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text == sentence)
    }

    // MARK: Writing a folder

    @Test("write() makes every planned file, samples.json, and files photomill reads as planned")
    func writeFolder() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let calls = Mutex([(Int, Int)]())
        let specs = try SampleGenerator(seed: 3, maxSide: 192).write(count: 12, to: folder) { done, total in
            calls.withLock { $0.append((done, total)) }
        }
        #expect(specs == SampleGenerator(seed: 3, maxSide: 192).plan(count: 12))
        #expect(calls.withLock { $0.map(\.0) } == Array(1...12))
        #expect(try SampleManifest.read(from: folder) == SampleManifest(seed: 3, files: specs))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(Set(names) == Set(specs.map(\.file) + [SampleManifest.fileName]), "no temporary files are left")

        let processor = PhotoProcessor()
        for spec in specs {
            let path = folder.appendingPathComponent(spec.file).path
            let result = processor.process(path: path, kinds: [.metadata, .thumbnail])
            switch spec.broken {
            case "empty":
                #expect(result.fileSize == 0)
                #expect(result.errors[.metadata]?.errorClass == .notAnImage)
            case "text":
                #expect(result.errors[.metadata]?.errorClass == .notAnImage)
            case "garbled":
                #expect(result.errors[.metadata]?.errorClass == .corrupt, "\(spec.file)")
                #expect(result.errors[.thumbnail]?.errorClass == .corrupt, "\(spec.file)")
            case "truncated":
                #expect(result.errors[.thumbnail]?.errorClass == .corrupt, "\(spec.file)")
                ExifWriterTests.expect(try #require(result.metadata), matches: spec.exif)
            default:
                #expect(result.errors.isEmpty, "\(spec.file): \(result.errors)")
                let metadata = try #require(result.metadata, "\(spec.file)")
                ExifWriterTests.expect(metadata, matches: spec.exif)
                #expect(metadata.pixelWidth == spec.width && metadata.pixelHeight == spec.height, "\(spec.file)")
                let upright = spec.uprightSize
                #expect(
                    result.thumbnail.map {
                        ($0.width > $0.height) == (upright.width > upright.height) || upright.width == upright.height
                    } == true,
                    "\(spec.file): thumbnail is upright"
                )
            }
        }

        // A strict, independent reader finds nothing to complain about in the good files.
        if ExifWriterTests.exiftoolInstalled {
            let good = specs.filter { $0.broken == nil }.map { folder.appendingPathComponent($0.file).path }
            let output = try Tool.run("exiftool", ["-j", "-Warning", "-Error"] + good)
            let reports = try #require(try JSONSerialization.jsonObject(with: output.data) as? [[String: Any]])
            #expect(reports.count == good.count)
            for report in reports {
                #expect(report["Warning"] == nil && report["Error"] == nil, "\(report)")
            }
        }
    }

    /// A HEIC as `ImageEncoder.heic` writes it through libheif (x265's `ultrafast`):
    /// exiftool reads the EXIF it was given, heif-convert decodes the picture it was
    /// given (a lossy HEVC at quality 60: the mean difference a few levels of 255), and
    /// exiftool reports no warning about the file.
    @Test(.enabled(if: ExifWriterTests.exiftoolInstalled && vipsInstalled && Tool.isAvailable("heif-convert")))
    func heicCarriesItsExifAndItsPicture() throws {
        var exif = ExifFields()
        exif.make = "Korvex"
        exif.model = "K-9 \u{00e9}"
        exif.dateTimeOriginal = "2024:02:29 23:59:58"
        exif.gpsLatitude = -33.856784
        exif.gpsLongitude = 151.215297
        exif.orientation = 1
        let picture = SampleScene(seed: 5).render(width: 200, height: 120)
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.heic")
        let bytes = try ImageEncoder.heic(
            picture,
            quality: 60,
            exif: ImageEncoder.Exif(payload: ExifWriter.payload(exif), orientation: 1)
        )
        try Data(bytes).write(to: file)

        let read = try ExifTool.values(
            file.path,
            [
                "Make", "Model", "DateTimeOriginal", "GPSLatitude", "GPSLongitude", "ImageWidth",
                "ImageHeight", "Warning",
            ]
        )
        #expect(read["Make"] as? String == "Korvex" && read["Model"] as? String == "K-9 \u{00e9}", "\(read)")
        #expect(read["DateTimeOriginal"] as? String == "2024:02:29 23:59:58", "\(read)")
        #expect(abs((read["GPSLatitude"] as? Double ?? 0) - -33.856784) < 1e-6, "\(read)")
        #expect(abs((read["GPSLongitude"] as? Double ?? 0) - 151.215297) < 1e-6, "\(read)")
        #expect(read["ImageWidth"] as? Int == 200 && read["ImageHeight"] as? Int == 120, "\(read)")
        #expect(read["Warning"] == nil, "\(read)")

        let png = folder.appendingPathComponent("a.png")
        let ppm = folder.appendingPathComponent("a.ppm")
        try Tool.output("heif-convert", [file.path, png.path])
        try Tool.output("vips", ["copy", png.path, ppm.path])
        let decoded = try Self.readPPM(ppm)
        try #require(decoded.width == 200 && decoded.height == 120)
        let difference = zip(decoded.pixels, picture.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(
            Double(difference) / Double(picture.pixels.count) < 6,
            "mean difference over \(picture.pixels.count) samples"
        )
    }
}

/// A lock around a value, for callbacks made from several threads.
final class Mutex<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}
