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

/// `photomill inspect --json` on ../shared/corpus/formats (camera RAW, HEIC, MP4, XMP
/// sidecars) against manifest-formats.json, whose values come from exiftool.
@Suite(
    .ownThread,
    .enabled(if: Corpus.isAvailable, Corpus.skipMessage)
)
struct FormatsCorpusTests {
    struct Manifest: Decodable {
        struct File: Decodable {
            let path: String
            let size: Int
            let md5: String
            let exiftool: [String: ExiftoolValue]
        }
        let files: [File]
    }

    static let formats = Corpus.root.appendingPathComponent("formats")

    /// Files whose image data exiftool's authors stripped (formats/README: "a thumbnail may
    /// fail on them, with a classified error").
    static let stripped: Set<String> = [
        "CanonRaw.cr2", "CanonRaw.cr3", "DNG.dng", "FujiFilm.raf", "Nikon.nef", "Panasonic.rw2",
    ]

    /// exiftool's CompressorID for FFmpeg's codec names.
    static let codecs = ["avc1": "h264", "hvc1": "hevc", "hev1": "hevc", "mp4v": "mpeg4"]

    @Test func inspectAgreesWithExiftool() throws {
        let manifest = try JSONDecoder().decode(
            Manifest.self,
            from: Data(contentsOf: Corpus.root.appendingPathComponent("manifest-formats.json"))
        )
        // Sidecars are not photos: they are read with the file beside them.
        let media = manifest.files.filter { !$0.path.hasSuffix(".xmp") }
        let names = media.map { String($0.path.dropFirst("formats/".count)) }
        let outcome = try PhotomillBinary.run(
            ["inspect", "--json", "--kinds", "hash,metadata,thumbnail"] + names,
            in: Self.formats
        )
        let objects = try PhotomillBinary.jsonLines(outcome)
        try #require(objects.count == media.count, "\(outcome.stderr)")

        var tally = ExiftoolTally()
        for (file, object) in zip(media, objects) {
            let name = String(file.path.dropFirst("formats/".count))
            #expect(object["md5"] as? String == file.md5, "\(name)")
            let errors = object["errors"] as? [String: [String: String]] ?? [:]
            let metadata = try #require(object["metadata"] as? [String: Any], "\(name) has no metadata: \(errors)")
            #expect(errors["metadata"] == nil, "\(name)")
            if Self.stripped.contains(name) {
                // Metadata kept; the thumbnail fails, classified, naming the file.
                for (kind, failure) in errors {
                    #expect(
                        ["corrupt", "unsupported-format"].contains(failure["class"] ?? ""),
                        "\(name) \(kind): \(failure)"
                    )
                    #expect(failure["message"]?.contains(name) == true, "\(name) \(kind)")
                }
            } else {
                #expect(errors.isEmpty, "\(name): \(errors)")
            }
            let isVideo = name.hasSuffix(".mp4")
            #expect(
                metadata["mediaType"] as? String == (isVideo ? "video" : name.hasSuffix(".heic") ? "photo" : "raw"),
                "\(name)"
            )

            let exif = file.exiftool
            for (field, ours) in CorpusTests.fieldNames where !["ImageWidth", "ImageHeight"].contains(field) {
                guard var expected = exif[field] else { continue }
                // Placeholders exiftool shows for values the file does not have.
                if case .number(0) = expected, field.hasPrefix("GPS") { continue }
                if field == "Orientation", isVideo { continue }
                if field == "DateTimeOriginal", case .text(let text) = expected, text.hasPrefix("0000") { continue }
                if field == "ExposureTime", case .number(let seconds) = expected { expected = .number(seconds) }
                tally.compare(name, field, expected, metadata[ours])
            }
            if isVideo, case .text(let date)? = exif["CreateDate"], !date.hasPrefix("0000") {
                tally.compare(name, "DateTimeOriginal", .text(date), metadata["dateTaken"])
            }
            // exiftool's full image size ("W H"): for RAW the sensor's image, not a preview.
            if case .text(let size)? = exif["ImageSize"] {
                let parts = size.split(separator: " ").compactMap { Double($0) }
                tally.compare(name, "ImageWidth", .number(parts[0]), metadata["pixelWidth"])
                tally.compare(name, "ImageHeight", .number(parts[1]), metadata["pixelHeight"])
            }
            if let duration = exif["Duration"], isVideo {
                tally.compare(name, "Duration", duration, metadata["duration"])
            }
            if let rate = exif["VideoFrameRate"], isVideo {
                tally.compare(name, "VideoFrameRate", rate, metadata["frameRate"])
            }
            if case .text(let compressor)? = exif["CompressorID"], isVideo {
                tally.compare(
                    name,
                    "CompressorID",
                    .text(Self.codecs[compressor] ?? compressor),
                    metadata["videoCodec"]
                )
            }
        }
        #expect(tally.rate >= 0.99, "\(tally.summary)")
        print("formats: exiftool fields: \(tally.summary)")
    }

    /// formats2/: every file's metadata through `inspect` against manifest-formats2.json:
    /// RAW containers (CRW, MRW, X3F), JPEG XL, PNG with `eXIf`, WebP (animated too), AVIF,
    /// HEIF, an AVCHD `.mts` (MDPM), a GoPro MP4 (GPMF), MOV, 3GP, AVI, WebM. exiftool's
    /// placeholders (0000 dates, a zero duration) are not compared. Sizes are exiftool's
    /// ImageSize, but for X3F, where exiftool's ImageSize is the embedded JPEG's and
    /// ImageWidth/ImageHeight the sensor image's. The M2TS maker is the number exiftool
    /// reads (-n) with the name its H264 table gives it (0x1011 Canon).
    @Test func formats2AgreesWithExiftool() throws {
        let manifest = try JSONDecoder().decode(
            Manifest.self,
            from: Data(contentsOf: Corpus.root.appendingPathComponent("manifest-formats2.json"))
        )
        let media = manifest.files.filter { !$0.path.hasSuffix(".xmp") }
        let folder = Corpus.root.appendingPathComponent("formats2")
        let names = media.map { String($0.path.dropFirst("formats2/".count)) }
        let outcome = try PhotomillBinary.run(["inspect", "--json", "--kinds", "hash,metadata"] + names, in: folder)
        let objects = try PhotomillBinary.jsonLines(outcome)
        try #require(objects.count == media.count, "\(outcome.stderr)")

        var tally = ExiftoolTally()
        let videos: Set<String> = ["mts", "mp4", "avi", "3gp", "mov", "webm"]
        for (file, object) in zip(media, objects) {
            let name = String(file.path.dropFirst("formats2/".count))
            let ext = (name as NSString).pathExtension.lowercased()
            let errors = object["errors"] as? [String: [String: String]] ?? [:]
            var exif = file.exiftool
            guard !exif.filter({ !["FileType", "MIMEType"].contains($0.key) }).isEmpty else {
                // exiftool finds no metadata (a 17-byte JPEG): a classified failure naming the file.
                let failure = try #require(errors["metadata"], "\(name): \(object)")
                #expect(
                    failure["class"] == "corrupt" && failure["message"]?.contains(name) == true,
                    "\(name): \(failure)"
                )
                continue
            }
            let metadata = try #require(object["metadata"] as? [String: Any], "\(name) has no metadata: \(errors)")
            if case .number(0x1011)? = exif["Make"] { exif["Make"] = .text("Canon") }
            if videos.contains(ext), exif["DateTimeOriginal"] == nil {
                exif["DateTimeOriginal"] = exif["CreationDate"] ?? exif["CreateDate"]
            }
            for (field, ours) in CorpusTests.fieldNames where !["ImageWidth", "ImageHeight"].contains(field) {
                guard let expected = exif[field] else { continue }
                if case .number(0) = expected, field.hasPrefix("GPS") { continue }
                if field == "Orientation", videos.contains(ext) { continue }
                if field == "DateTimeOriginal", case .text(let text) = expected, text.hasPrefix("0000") { continue }
                tally.compare(name, field, expected, metadata[ours])
            }
            if case .text(let lens)? = exif["LensModel"] {
                tally.compare(name, "LensModel", .text(lens), metadata["lensModel"])
            }
            var size = exif["ImageSize"].flatMap { value -> [Double]? in
                if case .text(let text) = value { return text.split(separator: " ").compactMap { Double($0) } }
                return nil
            }
            if ext == "x3f", case .number(let width)? = exif["ImageWidth"],
                case .number(let height)? = exif["ImageHeight"]
            {
                size = [width, height]
            }
            if let size, size.count == 2 {
                tally.compare(name, "ImageWidth", .number(size[0]), metadata["pixelWidth"])
                tally.compare(name, "ImageHeight", .number(size[1]), metadata["pixelHeight"])
            }
            if case .number(let duration)? = exif["Duration"], duration > 0 {
                tally.compare(name, "Duration", .number(duration), metadata["duration"])
            }
        }
        #expect(tally.rate >= 0.99, "\(tally.summary)")
        print("formats2: exiftool fields: \(tally.summary)")
    }

    /// The GoPro model and first GPS fix, which exiftool reads only with -ee (the `fdsc`
    /// and `gpmd` tracks' samples; this Karma drone's GPS is a GPRI record), and AVCHD's
    /// MDPM, against exiftool run here.
    @Test(.enabled(if: Tool.isAvailable("exiftool"), "exiftool is not installed"))
    func goProAndAVCHDAsExiftoolReadsTheirEmbeddedData() throws {
        let folder = Corpus.root.appendingPathComponent("formats2")
        let outcome = try PhotomillBinary.run(
            ["inspect", "--json", "--kinds", "metadata", "gopro_karma.mp4", "exiftool_M2TS.mts"],
            in: folder
        )
        let objects = try PhotomillBinary.jsonLines(outcome)
        try #require(objects.count == 2, "\(outcome.stderr)")
        let reference =
            try JSONSerialization.jsonObject(
                with: Data(
                    try Tool.output(
                        "exiftool",
                        [
                            "-j", "-ee", "-Model", "-GPSLatitude#", "-GPSLongitude#", "-DateTimeOriginal", "-Make",
                            "-ExposureTime",
                            folder.appendingPathComponent("gopro_karma.mp4").path,
                            folder.appendingPathComponent("exiftool_M2TS.mts").path,
                        ]
                    ).utf8
                )
            ) as! [[String: Any]]
        let gopro = try #require(objects[0]["metadata"] as? [String: Any])
        let avchd = try #require(objects[1]["metadata"] as? [String: Any])
        #expect(
            gopro["cameraModel"] as? String == reference[0]["Model"] as? String && gopro["cameraModel"] != nil,
            "\(gopro)"
        )
        let latitude = try #require(reference[0]["GPSLatitude"] as? Double)
        let longitude = try #require(reference[0]["GPSLongitude"] as? Double)
        // photomill takes the first position of the first sample; exiftool's -j shows the
        // last of that sample's (a second later: 1.3e-5° apart here), so 1e-4° (11 m).
        #expect(
            abs((gopro["gpsLatitude"] as? Double ?? 0) - latitude) < 1e-4
                && abs((gopro["gpsLongitude"] as? Double ?? 0) - longitude) < 1e-4,
            "\(gopro), exiftool \(latitude) \(longitude)"
        )
        #expect(
            avchd["cameraMake"] as? String == reference[1]["Make"] as? String && avchd["cameraMake"] != nil,
            "\(avchd)"
        )
        let date = try #require(reference[1]["DateTimeOriginal"] as? String)  // "2008:12:31 23:16:24+01:00"
        #expect(
            avchd["dateTaken"] as? String == date.prefix(10).replacingOccurrences(of: ":", with: "-") + "T"
                + date.dropFirst(11)
        )
    }

    /// Each stripped RAW as the only file of a fresh process, asked for a picture only:
    /// the RAW path may then be the first to touch libvips (a DNG or RW2 with no preview
    /// large enough decodes nothing before LibRaw), which once crashed on clearing
    /// libvips' error buffer before libvips was initialised.
    @Test(arguments: ["DNG.dng", "Panasonic.rw2", "Nikon.nef"], ["thumbnail", "ocr"])
    func strippedRawAloneFailsClassified(name: String, kind: String) throws {
        let outcome = try PhotomillBinary.run(["inspect", "--json", "--kinds", kind, name], in: Self.formats)
        #expect(outcome.status == 1, "\(name) --kinds \(kind): exit \(outcome.status): \(outcome.stderr)")
        let object = try #require(try PhotomillBinary.jsonLines(outcome).first)
        let failure = try #require((object["errors"] as? [String: [String: String]])?[kind])
        #expect(failure["class"] == "corrupt" && failure["message"]?.contains(name) == true, "\(failure)")
    }

    /// iphone_7.heic: EXIF orientation 6 and no `irot`. Its thumbnail must equal the
    /// picture as stored, turned 90° clockwise by the vips command.
    @Test(.enabled(if: Tool.isAvailable("vips"), "the vips command is not installed"))
    func iphoneHEICIsUpright() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let heic = Self.formats.appendingPathComponent("iphone_7.heic").path
        let outcome = try PhotomillBinary.run([
            "inspect", "--json", "--kinds", "hash,thumbnail", "--thumbnail-dir", directory.path, heic,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try #require(try PhotomillBinary.jsonLines(outcome).first)
        let thumbnail = try #require(object["thumbnail"] as? [String: Any])
        #expect(thumbnail["width"] as? Int == 192 && thumbnail["height"] as? Int == 256, "sideways: \(thumbnail)")
        let ours = try #require(thumbnail["path"] as? String)

        let stored = directory.appendingPathComponent("stored.v").path
        let reference = directory.appendingPathComponent("reference.v").path
        try Tool.output("vips", ["thumbnail", heic, stored, "256", "--no-rotate"])
        try Tool.output("vips", ["rot", stored, reference, "d90"])
        #expect(try Tool.output("vipsheader", ["-f", "width", reference]).hasPrefix("192"))
        let upright = try Tool.meanDifference(ours, reference, in: directory)
        // Measured 3.5 (JPEG Q80 against an uncompressed reference); turned the wrong way, 85.6.
        #expect(upright < 8, "mean difference from the turned reference: \(upright)")
        // The same check fails for the picture turned the wrong way.
        let wrong = directory.appendingPathComponent("wrong.v").path
        try Tool.output("vips", ["rot", stored, wrong, "d270"])
        #expect(try Tool.meanDifference(ours, wrong, in: directory) > 3 * max(upright, 2))
    }

    /// Seeded bit flips and truncations of every file in formats/: each variant is a
    /// result or a classified error, in one `inspect` process (a crash would end it) that
    /// finishes in bounded time.
    @Test func hostileVariantsAreResultsOrClassifiedErrors() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.formats.path)
            .filter { !$0.hasSuffix(".xmp") && !$0.hasSuffix(".md") }.sorted().map {
                Self.formats.appendingPathComponent($0)
            }
        let variants = try HostileVariants.write(files, count: 8, seed: 20_261_123, into: directory)
        let started = Stopwatch()
        try HostileVariants.inspect(variants, in: directory)
        // 96 variants on 2 cores: every one well inside a 60 s lease.
        #expect(started.seconds < 300)
    }
}
