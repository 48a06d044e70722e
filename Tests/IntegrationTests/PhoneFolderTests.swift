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
import PhotomillTestSupport
import Testing

/// A folder as a phone and a photo editor leave it: HEIC and JPEG stills, MOV and MP4
/// videos, a Live Photo pair, XMP sidecars of both namings, and files that are not photos.
/// `run` processes it with nothing failed; the catalog, `search` and the exports carry the
/// new fields, checked against exiftool's reading of the same files.
@Suite(
    .ownThread,
    .enabled(
        if: Tool.allAvailable("ffmpeg", "heif-enc", "exiftool"),
        "needs ffmpeg, heif-enc and exiftool (scripts/install-deps.sh)"
    )
)
struct PhoneFolderTests {
    static func sidecar(title: String?, keywords: [String], rating: Int) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmp:Rating="\(rating)">
           \(title.map { "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">\($0)</rdf:li></rdf:Alt></dc:title>" } ?? "")
           <dc:subject><rdf:Bag>\(keywords.map { "<rdf:li>\($0)</rdf:li>" }.joined())</rdf:Bag></dc:subject>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        """
    }

    /// Makes the folder; returns it.
    static func makeFolder(in directory: URL) throws -> URL {
        let folder = directory.appendingPathComponent("DCIM")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let work = directory.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let base = work.appendingPathComponent("base.jpg").path
        try Tool.output("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=640x480", "-frames:v", "1", base])
        // A Live Photo: a still and a video of one name stem.
        try Tool.output("heif-enc", ["-q", "50", base, "-o", path("IMG_0001.HEIC")])
        try Tool.output(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=2:size=320x240:rate=25",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "use_metadata_tags",
                "-metadata", "com.apple.quicktime.creationdate=2021-06-01T10:00:00+0200", path("IMG_0001.MOV"),
            ]
        )
        // Stills with sidecars: darktable's NAME.EXT.xmp and Lightroom's NAME.xmp.
        try FileManager.default.copyItem(atPath: base, toPath: path("IMG_0002.JPG"))
        try sidecar(title: "Harbour at dusk", keywords: ["harbour", "boats"], rating: 4)
            .write(toFile: path("IMG_0002.JPG.xmp"), atomically: true, encoding: .utf8)
        try Tool.output(
            "ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x480", "-frames:v", "1", path("IMG_0003.jpg")]
        )
        try sidecar(title: nil, keywords: ["family"], rating: 2).write(
            toFile: path("IMG_0003.xmp"),
            atomically: true,
            encoding: .utf8
        )
        // A video shot in portrait, with Apple's keys, rotated by its display matrix.
        let plain = work.appendingPathComponent("plain.mp4").path
        try Tool.output(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=3:size=320x240:rate=30",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", plain,
            ]
        )
        try Tool.output(
            "ffmpeg",
            [
                "-v", "error", "-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90",
                "-movflags", "use_metadata_tags",
                "-metadata", "com.apple.quicktime.location.ISO6709=+48.8584+002.2945/",
                "-metadata", "com.apple.quicktime.make=Apple", "-metadata", "com.apple.quicktime.model=iPhone 12",
                path("VID_0004.mp4"),
            ]
        )
        // Not photos: a text file that starts like a BMP, and an iPhone edit record.
        try "BM shopping list\nbread\n".write(toFile: path("notes.txt"), atomically: true, encoding: .utf8)
        try "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>\n".write(
            toFile: path("IMG_0005.AAE"),
            atomically: true,
            encoding: .utf8
        )
        return folder
    }

    @Test func runProcessesAPhoneFolderWithNothingFailed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try Self.makeFolder(in: directory)
        let catalog = directory.appendingPathComponent("catalog.sqlite").path
        let exports = directory.appendingPathComponent("exports")
        func file(_ name: String) -> String { folder.appendingPathComponent(name).path }

        let run = try PhotomillBinary.run([
            "run", folder.path, "--workers", "2", "--catalog", catalog, "--exports", exports.path,
        ])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("5 new"), "\(run.stdout)")
        #expect(run.stdout.contains("skipped: 2 files"), "\(run.stdout)")

        let status = try #require(
            try JSONSerialization.jsonObject(
                with: Data(
                    PhotomillBinary.run(["status", "--json", "--catalog", catalog]).stdout.utf8
                )
            ) as? [String: Any]
        )
        #expect(status["mediaTypes"] as? [String: Int] == ["photo": 3, "video": 2], "\(status)")
        #expect(status["skippedFiles"] as? Int == 2)
        #expect(
            (status["library"] as? [String: Any])?["skipped"] as? [String: Int] == ["not-media": 2],
            "notes.txt and the .AAE"
        )
        let catalogURL = URL(fileURLWithPath: catalog)
        #expect(try CatalogQuery.count(catalogURL, "SELECT COUNT(*) FROM tasks WHERE state != 'done'") == 0)
        // Videos have no OCR task.
        #expect(try CatalogQuery.count(catalogURL, "SELECT COUNT(*) FROM tasks WHERE kind = 'ocr'") == 3)

        func search(_ arguments: [String]) throws -> [[String: Any]] {
            let outcome = try PhotomillBinary.run(["search", "--json", "--catalog", catalog] + arguments)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            return try PhotomillBinary.jsonLines(outcome)
        }
        #expect(
            try search(["--type", "video"]).compactMap { $0["path"] as? String } == [
                file("IMG_0001.MOV"), file("VID_0004.mp4"),
            ]
        )

        // The sidecar's values, as exiftool reads the sidecar.
        let xmp = try ExifTool.values(file("IMG_0002.JPG.xmp"), ["Title", "Subject", "Rating"])
        let harbour = try search(["--keyword", "HARBOUR"])
        #expect(harbour.map { $0["path"] as? String } == [file("IMG_0002.JPG")])
        #expect(harbour.first?["title"] as? String == xmp["Title"] as? String)
        #expect(harbour.first?["keywords"] as? [String] == xmp["Subject"] as? [String])
        #expect(harbour.first?["rating"] as? Int == xmp["Rating"] as? Int)
        #expect(try search(["dusk"]).map { $0["path"] as? String } == [file("IMG_0002.JPG")], "a title word")
        #expect(
            try search(["--rating", "2"]).compactMap { $0["path"] as? String } == [
                file("IMG_0002.JPG"), file("IMG_0003.jpg"),
            ]
        )
        #expect(try search(["--keyword", "family"]).compactMap { $0["path"] as? String } == [file("IMG_0003.jpg")])

        // The Live Photo's halves name each other.
        let live = try search(["--type", "photo"]).first { $0["path"] as? String == file("IMG_0001.HEIC") }
        #expect(live?["livePhoto"] as? String == file("IMG_0001.MOV"))

        // Exports: the video's fields against exiftool's; no empty OCR text anywhere.
        var plists: [String: [String: Any]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: exports.appendingPathComponent("metadata").path)
        {
            let data = try Data(contentsOf: exports.appendingPathComponent("metadata/\(name)"))
            let values = try #require(
                try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
            )
            #expect(values["ocrText"] as? String != "", "\(name)")
            plists[values["md5"] as? String ?? name] = values
        }
        #expect(plists.count == 5)
        let videoMD5 = try #require(
            try CatalogQuery.rows(catalogURL, "SELECT md5 FROM photos WHERE path = '\(file("VID_0004.mp4"))'").first?
                .first
        )
        let video = try #require(plists[videoMD5])
        let tool = try ExifTool.values(
            file("VID_0004.mp4"),
            ["Duration", "Rotation", "GPSLatitude", "GPSLongitude", "Model", "VideoFrameRate"]
        )
        #expect(video["mediaType"] as? String == "video")
        #expect(
            abs((video["duration"] as? Double ?? 0) - (tool["Duration"] as? Double ?? -1)) < 0.05,
            "\(video) \(tool)"
        )
        // exiftool's Rotation (clockwise degrees to display) as the EXIF orientation it is.
        let rotation = try #require(tool["Rotation"] as? Int)
        #expect(
            rotation != 0 && video["orientation"] as? Int == [0: 1, 90: 6, 180: 3, 270: 8][rotation],
            "\(rotation) \(video)"
        )
        #expect(abs((video["gpsLatitude"] as? Double ?? 0) - (tool["GPSLatitude"] as? Double ?? -1)) < 1e-4)
        #expect(video["cameraModel"] as? String == tool["Model"] as? String)
        #expect(abs((video["frameRate"] as? Double ?? 0) - (tool["VideoFrameRate"] as? Double ?? -1)) < 0.01)
        #expect(video["videoCodec"] as? String == "h264")
        let movMD5 = try #require(
            try CatalogQuery.rows(catalogURL, "SELECT md5 FROM photos WHERE path = '\(file("IMG_0001.MOV"))'").first?
                .first
        )
        // What belongs to a file (format 3) is in photos/{id}.plist, not in the content's plist.
        func filePlist(_ name: String) throws -> [String: Any] {
            let id = try #require(
                try CatalogQuery.rows(catalogURL, "SELECT id FROM photos WHERE path = '\(file(name))'").first?.first
            )
            let data = try Data(contentsOf: exports.appendingPathComponent("photos/\(id).plist"))
            return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        }
        #expect(plists[movMD5]?["livePhoto"] == nil, "a file's key is not in the content's plist")
        #expect(try filePlist("IMG_0001.MOV")["livePhoto"] as? String == file("IMG_0001.HEIC"))
        #expect(plists[movMD5]?["dateTaken"] as? String == "2021-06-01T10:00:00+02:00")
        let stillMD5 = try #require(
            try CatalogQuery.rows(catalogURL, "SELECT md5 FROM photos WHERE path = '\(file("IMG_0002.JPG"))'").first?
                .first
        )
        let still = try filePlist("IMG_0002.JPG")
        #expect(still["title"] as? String == xmp["Title"] as? String)
        #expect(still["keywords"] as? [String] == xmp["Subject"] as? [String])
        #expect(still["rating"] as? Int == xmp["Rating"] as? Int)
        #expect(plists[stillMD5]?["mediaType"] as? String == "photo")

        // Editing a sidecar re-runs only its photo's metadata.
        try Self.sidecar(title: "Harbour at dusk", keywords: ["harbour", "boats"], rating: 5)
            .write(toFile: file("IMG_0002.JPG.xmp"), atomically: true, encoding: .utf8)
        let again = try PhotomillBinary.run([
            "run", folder.path, "--workers", "1", "--catalog", catalog, "--exports", exports.path,
        ])
        #expect(again.status == 0, "\(again.stdout)\n\(again.stderr)")
        #expect(again.stdout.contains("1 changed sidecars"), "\(again.stdout)")
        #expect(try search(["--rating", "5"]).compactMap { $0["path"] as? String } == [file("IMG_0002.JPG")])
        #expect(
            try CatalogQuery.count(
                catalogURL,
                "SELECT COUNT(*) FROM attempts a JOIN photos p ON p.id = a.photoId WHERE p.path = '\(file("IMG_0002.JPG"))' AND a.kind = 'metadata'"
            ) == 2
        )
        // Nothing else ran again: the five files' hash, thumbnail and similarity, the three stills' OCR.
        #expect(
            try CatalogQuery.count(catalogURL, "SELECT COUNT(*) FROM attempts WHERE kind != 'metadata'") == 5 * 3 + 3
        )
    }

    /// Issue 27's phone-and-camera folder: what a phone, a camera and a camcorder leave on a
    /// disk, with a zero-byte `.jpg`, a folder linked in from inside the library and one
    /// from outside it, a sidecar, and a file that is not media. Videos, a PNG screenshot
    /// with EXIF and HEIC are made by ffmpeg, exiftool and heif-enc; Sony's HIF and Canon's
    /// CRW and CR3 come from the corpus (no tool writes them). The corpus's CRW and CR3 are
    /// exiftool's metadata samples: 6,816 and 52,502 bytes for sensors of 6.5 and 25.5
    /// megapixels, so their pixels cannot be there (LibRaw says "Cannot unpack" to the first,
    /// and decodes the second's 52 KB into noise): their thumbnail and OCR must fail
    /// `corrupt`, their metadata must not.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func runNamesTheEmptyFileAndSaysWhatItSkipped() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("library")
        let work = directory.appendingPathComponent("work")
        for folder in ["DCIM/100APPLE", "Screenshots", "AVCHD/BDMV/STREAM", "Camera", "Trip", "../outside"] {
            try FileManager.default.createDirectory(
                at: library.appendingPathComponent(folder),
                withIntermediateDirectories: true
            )
        }
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        func file(_ name: String) -> String { library.appendingPathComponent(name).path }
        func corpus(_ name: String, to target: String) throws {
            try FileManager.default.copyItem(
                atPath: Corpus.root.appendingPathComponent(name).path,
                toPath: file(target)
            )
        }
        let base = work.appendingPathComponent("base.png").path
        try Tool.output("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=640x480", "-frames:v", "1", base])
        try Tool.output("heif-enc", ["-q", "50", base, "-o", file("DCIM/100APPLE/IMG_0001.HEIC")])
        try Tool.output("ffmpeg", ["-v", "error", "-i", base, file("DCIM/100APPLE/IMG_0002.JPG")])
        try Self.sidecar(title: "Quay", keywords: ["harbour"], rating: 3)
            .write(toFile: file("DCIM/100APPLE/IMG_0002.JPG.xmp"), atomically: true, encoding: .utf8)
        try Tool.output(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=1:size=320x240:rate=25", "-c:v", "libx264",
                "-pix_fmt", "yuv420p", "-movflags", "use_metadata_tags",
                "-metadata", "com.apple.quicktime.model=iPhone 15", file("DCIM/100APPLE/IMG_0003.MOV"),
            ]
        )
        try Tool.output(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=duration=1:size=320x240:rate=30", "-c:v", "libx264",
                "-pix_fmt", "yuv420p", file("DCIM/100APPLE/VID_0004.MP4"),
            ]
        )
        // A camcorder's transport stream.
        try Tool.output(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=1:size=640x360:rate=25", "-c:v", "libx264",
                "-pix_fmt", "yuv420p", "-f", "mpegts", file("AVCHD/BDMV/STREAM/00000.MTS"),
            ]
        )
        // A screenshot with EXIF in its eXIf chunk, as exiftool writes it.
        try Tool.output("ffmpeg", ["-v", "error", "-i", base, file("Screenshots/Screenshot_1.png")])
        try Tool.output(
            "exiftool",
            [
                "-q", "-overwrite_original", "-Make=Google", "-Model=Pixel 8", "-DateTimeOriginal=2024:05:06 07:08:09",
                "-GPSLatitude=51.5", "-GPSLatitudeRef=N", "-GPSLongitude=0.125", "-GPSLongitudeRef=W",
                file("Screenshots/Screenshot_1.png"),
            ]
        )
        try corpus("formats2/Sony.HIF", to: "DCIM/DSC00001.HIF")
        try corpus("formats2/exiftool_CanonRaw.crw", to: "Camera/CRW_0001.CRW")
        try corpus("formats/CanonRaw.cr3", to: "Camera/IMG_0005.CR3")
        FileManager.default.createFile(atPath: file("DCIM/100APPLE/IMG_0006.jpg"), contents: Data())
        // A folder linked from inside the library (its photo counted once) and one from outside.
        try FileManager.default.copyItem(atPath: file("DCIM/100APPLE/IMG_0002.JPG"), toPath: file("Trip/IMG_0100.JPG"))
        try Tool.output("exiftool", ["-q", "-overwrite_original", "-Model=Trip camera", file("Trip/IMG_0100.JPG")])
        try FileManager.default.createSymbolicLink(atPath: file("DCIM/Trip"), withDestinationPath: "../Trip")
        try Tool.output("ffmpeg", ["-v", "error", "-i", base, file("../outside/IMG_0200.JPG")])
        try FileManager.default.createSymbolicLink(atPath: file("Outside"), withDestinationPath: file("../outside"))
        try "shopping list\n".write(toFile: file("notes.txt"), atomically: true, encoding: .utf8)

        let catalog = directory.appendingPathComponent("catalog.sqlite").path
        let catalogURL = URL(fileURLWithPath: catalog)
        let run = try PhotomillBinary.run(["run", library.path, "--workers", "2", "--catalog", catalog, "--no-exports"])
        #expect(run.status == 1, "a file failed: run exits 1\n\(run.stdout)\n\(run.stderr)")

        // Failed: the empty file, every kind; the RAW samples' pixels. Nothing else.
        let failed = try PhotomillBinary.jsonLines(PhotomillBinary.run(["failed", "--json", "--catalog", catalog]))
        var expected: Set<String> = Set(
            ["hash", "metadata", "thumbnail", "similarity", "ocr"].map { file("DCIM/100APPLE/IMG_0006.jpg") + " " + $0 }
        )
        for raw in ["Camera/CRW_0001.CRW", "Camera/IMG_0005.CR3"] {
            expected.formUnion(["thumbnail", "similarity", "ocr"].map { file(raw) + " " + $0 })
        }
        #expect(
            Set(failed.map { "\($0["path"] as? String ?? "?") \($0["kind"] as? String ?? "?")" }) == expected,
            "\(failed)"
        )
        for entry in failed {
            let path = entry["path"] as? String ?? ""
            #expect(entry["errorClass"] as? String == (path.hasSuffix(".jpg") ? "empty" : "corrupt"), "\(entry)")
            #expect((entry["message"] as? String ?? "").hasPrefix(path), "the message names the file: \(entry)")
        }
        #expect(
            try CatalogQuery.count(catalogURL, "SELECT COUNT(*) FROM tasks WHERE state NOT IN ('done', 'failed')") == 0
        )

        // Skipped: what and why.
        let skipped = try PhotomillBinary.jsonLines(PhotomillBinary.run(["skipped", "--json", "--catalog", catalog]))
        #expect(
            Dictionary(
                uniqueKeysWithValues: skipped.map { ($0["path"] as? String ?? "?", $0["reason"] as? String ?? "?") }
            )
                == [file("notes.txt"): "not-media", file("Outside"): "link-outside-roots"],
            "\(skipped)"
        )

        // Each photo once (nine made or copied, the empty one, the linked-in folder's), nothing from outside.
        let paths = try CatalogQuery.rows(catalogURL, "SELECT path FROM photos").compactMap(\.first)
        #expect(paths.count == 11, "\(paths.sorted())")
        #expect(paths.filter { $0.hasSuffix("IMG_0100.JPG") }.count == 1, "\(paths.sorted())")
        #expect(!paths.contains { $0.contains("IMG_0200") }, "\(paths.sorted())")

        // Metadata as exiftool reads it, whatever the pixels did.
        func inspected(_ name: String) throws -> [String: Any] {
            let rows = try PhotomillBinary.jsonLines(
                PhotomillBinary.run(["inspect", "--json", "--kinds", "metadata", file(name)])
            )
            return try #require((rows.first?["metadata"] as? [String: Any]), "\(rows)")
        }
        for name in [
            "Camera/CRW_0001.CRW", "Camera/IMG_0005.CR3", "DCIM/DSC00001.HIF", "Screenshots/Screenshot_1.png",
            "DCIM/100APPLE/IMG_0003.MOV", "Trip/IMG_0100.JPG",
        ] {
            let tool = try ExifTool.values(file(name), ["Model"])
            let model = try #require(tool["Model"] as? String, "exiftool reads a model from \(name)")
            #expect(try inspected(name)["cameraModel"] as? String == model, "\(name)")
        }
        let png = try inspected("Screenshots/Screenshot_1.png")
        let gps = try ExifTool.values(file("Screenshots/Screenshot_1.png"), ["GPSLatitude", "GPSLongitude"])
        #expect(
            abs((png["gpsLatitude"] as? Double ?? 0) - (gps["GPSLatitude"] as? Double ?? 1)) < 1e-6,
            "\(png) \(gps)"
        )
        #expect(
            abs((png["gpsLongitude"] as? Double ?? 0) - (gps["GPSLongitude"] as? Double ?? 1)) < 1e-6,
            "\(png) \(gps)"
        )
    }
}
