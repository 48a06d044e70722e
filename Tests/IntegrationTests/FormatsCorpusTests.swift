import Foundation
import PhotomillCore
import Testing

/// `photomill inspect --json` on ../shared/corpus/formats (camera RAW, HEIC, MP4, XMP
/// sidecars) against manifest-formats.json, whose values come from exiftool.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct FormatsCorpusTests {
    struct Manifest: Decodable {
        struct File: Decodable {
            let path: String
            let size: Int
            let md5: String
            let exiftool: [String: CorpusTests.ExifValue]
        }
        let files: [File]
    }

    static let formats = Corpus.root.appendingPathComponent("formats")

    /// Files whose image data exiftool's authors stripped (formats/README: "a thumbnail may
    /// fail on them, with a classified error").
    static let stripped: Set<String> = ["CanonRaw.cr2", "CanonRaw.cr3", "DNG.dng", "FujiFilm.raf", "Nikon.nef", "Panasonic.rw2"]

    /// exiftool's CompressorID for FFmpeg's codec names.
    static let codecs = ["avc1": "h264", "hvc1": "hevc", "hev1": "hevc", "mp4v": "mpeg4"]

    @Test func inspectAgreesWithExiftool() throws {
        let manifest = try JSONDecoder().decode(
            Manifest.self, from: Data(contentsOf: Corpus.root.appendingPathComponent("manifest-formats.json")))
        // Sidecars are not photos: they are read with the file beside them.
        let media = manifest.files.filter { !$0.path.hasSuffix(".xmp") }
        let names = media.map { String($0.path.dropFirst("formats/".count)) }
        let outcome = try PhotomillBinary.run(["inspect", "--json", "--kinds", "hash,metadata,thumbnail"] + names, in: Self.formats)
        let objects = try PhotomillBinary.jsonLines(outcome)
        try #require(objects.count == media.count, "\(outcome.stderr)")

        var compared = 0, agreed = 0
        var disagreements: [String] = []
        func compare(_ name: String, _ field: String, _ expected: CorpusTests.ExifValue, _ ours: Any?) {
            compared += 1
            if CorpusTests.agrees(field, exiftool: expected, ours: ours) { agreed += 1 }
            else { disagreements.append("\(name) \(field): exiftool \(expected), ours \(ours ?? "absent")") }
        }
        for (file, object) in zip(media, objects) {
            let name = String(file.path.dropFirst("formats/".count))
            #expect(object["md5"] as? String == file.md5, "\(name)")
            let errors = object["errors"] as? [String: [String: String]] ?? [:]
            let metadata = try #require(object["metadata"] as? [String: Any], "\(name) has no metadata: \(errors)")
            #expect(errors["metadata"] == nil, "\(name)")
            if Self.stripped.contains(name) {
                // Metadata kept; the thumbnail fails, classified, naming the file.
                for (kind, failure) in errors {
                    #expect(["corrupt", "unsupported-format"].contains(failure["class"] ?? ""), "\(name) \(kind): \(failure)")
                    #expect(failure["message"]?.contains(name) == true, "\(name) \(kind)")
                }
            } else {
                #expect(errors.isEmpty, "\(name): \(errors)")
            }
            let isVideo = name.hasSuffix(".mp4")
            #expect(metadata["mediaType"] as? String == (isVideo ? "video" : name.hasSuffix(".heic") ? "photo" : "raw"), "\(name)")

            let exif = file.exiftool
            for (field, ours) in CorpusTests.fieldNames where !["ImageWidth", "ImageHeight"].contains(field) {
                guard var expected = exif[field] else { continue }
                // Placeholders exiftool shows for values the file does not have.
                if case .number(0) = expected, field.hasPrefix("GPS") { continue }
                if field == "Orientation", isVideo { continue }
                if field == "DateTimeOriginal", case .text(let text) = expected, text.hasPrefix("0000") { continue }
                if field == "ExposureTime", case .number(let seconds) = expected { expected = .number(seconds) }
                compare(name, field, expected, metadata[ours])
            }
            if isVideo, case .text(let date)? = exif["CreateDate"], !date.hasPrefix("0000") {
                compare(name, "DateTimeOriginal", .text(date), metadata["dateTaken"])
            }
            // exiftool's full image size ("W H"): for RAW the sensor's image, not a preview.
            if case .text(let size)? = exif["ImageSize"] {
                let parts = size.split(separator: " ").compactMap { Double($0) }
                compare(name, "ImageWidth", .number(parts[0]), metadata["pixelWidth"])
                compare(name, "ImageHeight", .number(parts[1]), metadata["pixelHeight"])
            }
            if let duration = exif["Duration"], isVideo { compare(name, "Duration", duration, metadata["duration"]) }
            if let rate = exif["VideoFrameRate"], isVideo { compare(name, "VideoFrameRate", rate, metadata["frameRate"]) }
            if case .text(let compressor)? = exif["CompressorID"], isVideo {
                compare(name, "CompressorID", .text(Self.codecs[compressor] ?? compressor), metadata["videoCodec"])
            }
        }
        let rate = Double(agreed) / Double(compared)
        #expect(rate >= 0.99, "agreement \(agreed)/\(compared); \(disagreements.joined(separator: "; "))")
        print("formats: \(agreed)/\(compared) exiftool fields agree (\(String(format: "%.1f", rate * 100)) %); differing: \(disagreements)")
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
        let outcome = try PhotomillBinary.run(["inspect", "--json", "--kinds", "hash,thumbnail", "--thumbnail-dir", directory.path, heic])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try #require(try PhotomillBinary.jsonLines(outcome).first)
        let thumbnail = try #require(object["thumbnail"] as? [String: Any])
        #expect(thumbnail["width"] as? Int == 192 && thumbnail["height"] as? Int == 256, "sideways: \(thumbnail)")
        let ours = try #require(thumbnail["path"] as? String)

        let stored = directory.appendingPathComponent("stored.v").path
        let reference = directory.appendingPathComponent("reference.v").path
        try Tool.run(["vips", "thumbnail", heic, stored, "256", "--no-rotate"])
        try Tool.run(["vips", "rot", stored, reference, "d90"])
        #expect(try Tool.run(["vipsheader", "-f", "width", reference]).hasPrefix("192"))
        let upright = try Tool.meanDifference(ours, reference, in: directory)
        // Measured 3.5 (JPEG Q80 against an uncompressed reference); turned the wrong way, 85.6.
        #expect(upright < 8, "mean difference from the turned reference: \(upright)")
        // The same check fails for the picture turned the wrong way.
        let wrong = directory.appendingPathComponent("wrong.v").path
        try Tool.run(["vips", "rot", stored, wrong, "d270"])
        #expect(try Tool.meanDifference(ours, wrong, in: directory) > 3 * max(upright, 2))
    }

    /// Seeded bit flips and truncations of every file in formats/: each variant is a
    /// result or a classified error, in one `inspect` process (a crash would end it) that
    /// finishes in bounded time.
    @Test func hostileVariantsAreResultsOrClassifiedErrors() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.formats.path)
            .filter { !$0.hasSuffix(".xmp") && !$0.hasSuffix(".md") }.sorted().map { Self.formats.appendingPathComponent($0) }
        let variants = try HostileVariants.write(files, count: 8, seed: 20261123, into: directory)
        let started = Date()
        try HostileVariants.inspect(variants, in: directory)
        // 96 variants on 2 cores: every one well inside a 60 s lease.
        #expect(Date().timeIntervalSince(started) < 300)
    }
}
