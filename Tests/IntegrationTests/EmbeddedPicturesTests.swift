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

/// The previews of camera RAW containers that LibRaw 0.20 cannot decode, and files with a
/// second picture inside (a gain map) that must not be the one shown.
@Suite(
    .ownThread,
    .serialized,
    .enabled(if: Corpus.isAvailable, Corpus.skipMessage),
    .enabled(
        if: Tool.allAvailable("ffmpeg", "exiftool", "vips", "raw-identify", "heif-convert", "python3"),
        "needs ffmpeg, exiftool, libvips-tools, libraw-bin, libheif-examples and python3"
    )
)
struct EmbeddedPicturesTests {
    /// A CR3 of a body LibRaw 0.20 does not know (EOS R5) with its three previews, made
    /// from the corpus's CR3 (whose previews exiftool's authors stripped) by
    /// `Tests/Media/cr3_fixture.py` as lclevy's description lays them out, then renamed and
    /// turned by exiftool. exiftool gives the three JPEGs back; photomill takes the smallest
    /// that reaches the size asked for, turned by the CR3's orientation.
    @Test func cr3PreviewsForABodyLibRawDoesNotKnow() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        // Three different pictures, so that the one chosen shows.
        for (name, source, size) in [
            ("thumbnail", "testsrc2", "160x120"), ("preview", "smptehdbars", "1620x1080"),
            ("full", "rgbtestsrc", "2400x1600"),
        ] {
            try Tool.output(
                "ffmpeg",
                ["-v", "error", "-f", "lavfi", "-i", "\(source)=size=\(size)", "-frames:v", "1", path("\(name).png")]
            )
            try Tool.output("vips", ["copy", path("\(name).png"), path("\(name).jpg[Q=90]")])
        }
        let base = Corpus.root.appendingPathComponent("formats/CanonRaw.cr3").path
        try Tool.output(
            "python3",
            [
                PixelFormatsTests.scripts.appendingPathComponent("cr3_fixture.py").path, base, path("r5.cr3"),
                path("thumbnail.jpg"), path("preview.jpg"), path("full.jpg"),
            ]
        )
        try Tool.output(
            "exiftool",
            [
                "-q", "-overwrite_original", "-Model=Canon EOS R5", "-CanonModelID#=0x80000421", "-Orientation#=6",
                path("r5.cr3"),
            ]
        )
        // exiftool reads the previews back (THMB keeps its padding to 4 bytes).
        for (tag, name) in [("ThumbnailImage", "thumbnail"), ("PreviewImage", "preview"), ("JpgFromRaw", "full")] {
            let extracted = path("extracted-\(name).jpg")
            try Tool.output("sh", ["-c", "exiftool -b -\(tag) \"$0\" > \"$1\"", path("r5.cr3"), extracted])
            let original = try Data(contentsOf: URL(fileURLWithPath: path("\(name).jpg")))
            #expect(try Data(contentsOf: URL(fileURLWithPath: extracted)).prefix(original.count) == original, "\(tag)")
        }
        #expect(try ExifTool.values(path("r5.cr3"), ["Model", "Orientation"])["Model"] as? String == "Canon EOS R5")
        // LibRaw knows the name but not the body: its "Image flip" is the orientation photomill applies.
        #expect(try Tool.output("raw-identify", ["-v", path("r5.cr3")]).contains("Image flip: 6"))

        // Each preview turned as the CR3's orientation turns it, once for the three sizes.
        for candidate in ["thumbnail", "preview", "full"] {
            try Tool.output("vips", ["rot", path("\(candidate).png"), path("turned-\(candidate).png"), "d90"])
        }
        for (side, name) in [(128, "thumbnail"), (256, "preview"), (2048, "full")] {
            let thumbnails = directory.appendingPathComponent("thumbnails-\(side)")
            try FileManager.default.createDirectory(at: thumbnails, withIntermediateDirectories: true)
            let outcome = try PhotomillBinary.run([
                "inspect", "--json", "--kinds", "thumbnail", "--thumbnail-size", "\(side)",
                "--thumbnail-dir", thumbnails.path, path("r5.cr3"),
            ])
            let object = try #require(try PhotomillBinary.jsonLines(outcome).first, "\(outcome.stderr)")
            let thumbnail = try #require(object["thumbnail"] as? [String: Any], "\(side): \(object)")
            let ours = try #require(thumbnail["path"] as? String)
            // Turned 90° clockwise (orientation 6): portrait.
            #expect(
                (thumbnail["height"] as? Int) == side && (thumbnail["width"] as? Int ?? 0) < side,
                "\(side): \(thumbnail)"
            )
            // Against each preview turned the same way: the chosen one is the nearest.
            var distances: [String: Double] = [:]
            for candidate in ["thumbnail", "preview", "full"] {
                distances[candidate] = try PixelFormatsTests.compare(ours, path("turned-\(candidate).png"))
                    .pixelDifference
            }
            #expect(
                distances[name]! < 10
                    && distances.filter { $0.key != name }.allSatisfy { $0.value > distances[name]! + 20 },
                "\(side) px should come from the \(name): \(distances)"
            )
        }
    }

    /// A Sigma X3F, which LibRaw 0.20 as Debian builds it cannot open: its pictures are
    /// its previews, found from its section directory. Made from formats2's DP2 file (its
    /// previews stripped) by `Tests/Media/x3f_fixture.py`; exiftool reads both back. The
    /// full-size JPEG carries the camera's EXIF, orientation 6: the thumbnail is turned.
    @Test func x3fPreviewsAreItsPictures() throws {
        let base = Corpus.root.appendingPathComponent("formats2/exiftool_SigmaDP2.x3f").path
        try #require(FileManager.default.fileExists(atPath: base), "formats2 is absent")
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try Tool.output(
            "ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=2640x1760", "-frames:v", "1", path("full.png")]
        )
        try Tool.output(
            "ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "smptehdbars=size=221x147", "-frames:v", "1", path("small.png")]
        )
        try Tool.output("vips", ["copy", path("full.png"), path("full.jpg[Q=90]")])
        try Tool.output("vips", ["copy", path("small.png"), path("small.jpg[Q=90,strip]")])
        try Tool.output("exiftool", ["-q", "-overwrite_original", "-Orientation#=6", "-Make=SIGMA", path("full.jpg")])
        try Tool.output(
            "python3",
            [
                PixelFormatsTests.scripts.appendingPathComponent("x3f_fixture.py").path, base, path("dp2.x3f"),
                path("full.jpg"), path("small.jpg"),
            ]
        )
        for (tag, name) in [("JpgFromRaw", "full.jpg"), ("PreviewImage", "small.jpg")] {
            try Tool.output(
                "sh",
                ["-c", "exiftool -b -\(tag) \"$0\" > \"$1\"", path("dp2.x3f"), path("extracted-\(name)")]
            )
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: path("extracted-\(name)")))
                    == Data(contentsOf: URL(fileURLWithPath: path(name))),
                "\(tag)"
            )
        }
        try Tool.output("vips", ["rot", path("full.png"), path("full-turned.png"), "d90"])
        try Tool.output("vips", ["rot", path("small.png"), path("small-turned.png"), "d90"])
        for (side, reference, other) in [
            (256, "full-turned.png", "small-turned.png"), (128, "small-turned.png", "full-turned.png"),
        ] {
            let thumbnails = directory.appendingPathComponent("thumbnails-\(side)")
            try FileManager.default.createDirectory(at: thumbnails, withIntermediateDirectories: true)
            let outcome = try PhotomillBinary.run([
                "inspect", "--json", "--kinds", "thumbnail", "--thumbnail-size", "\(side)",
                "--thumbnail-dir", thumbnails.path, path("dp2.x3f"),
            ])
            let object = try #require(try PhotomillBinary.jsonLines(outcome).first, "\(outcome.stderr)")
            let thumbnail = try #require(object["thumbnail"] as? [String: Any], "\(side): \(object)")
            #expect(
                thumbnail["height"] as? Int == side && (thumbnail["width"] as? Int ?? 0) < side,
                "turned: \(thumbnail)"
            )
            let ours = try #require(thumbnail["path"] as? String)
            let near = try PixelFormatsTests.compare(ours, path(reference))
            let far = try PixelFormatsTests.compare(ours, path(other))
            #expect(
                near.pixelDifference < 10 && far.pixelDifference > near.pixelDifference + 20,
                "\(side): \(near) / \(far)"
            )
        }
    }

    /// A JPEG with a gain map (the SDR base, then a second JPEG announced by MPF and the
    /// hdrgm XMP namespace, as Ultra HDR writes it; `gainmap_jpeg.py`) and an iPhone HEIC
    /// with Apple's gain map (an auxiliary image, urn:com:apple:photo:2020:aux:hdrgainmap):
    /// each thumbnail is the SDR base, not the gain map.
    @Test func gainMapPicturesShowTheirSDRBase() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try Tool.output(
            "ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=800x600", "-frames:v", "1", path("base.png")]
        )
        try Tool.output(
            "ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "mandelbrot=size=400x300", "-frames:v", "1", path("gainmap.png")]
        )
        try Tool.output("vips", ["copy", path("base.png"), path("base.jpg[Q=90]")])
        try Tool.output("vips", ["copy", path("gainmap.png"), path("gainmap.jpg[Q=90]")])
        try Tool.output(
            "python3",
            [
                PixelFormatsTests.scripts.appendingPathComponent("gainmap_jpeg.py").path, path("base.jpg"),
                path("gainmap.jpg"), path("ultrahdr.jpg"),
            ]
        )
        try Tool.output("sh", ["-c", "exiftool -b -MPImage2 \"$0\" > \"$1\"", path("ultrahdr.jpg"), path("mp2.jpg")])
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path("mp2.jpg")))
                == Data(contentsOf: URL(fileURLWithPath: path("gainmap.jpg")))
        )

        let iphone = Corpus.root.appendingPathComponent("photos/iphone_13_pro_max.HEIC").path
        let aux = try ExifTool.values(iphone, ["AuxiliaryImageType"])["AuxiliaryImageType"] as? String
        try #require(
            aux == "urn:com:apple:photo:2020:aux:hdrgainmap",
            "the corpus's iPhone 13 HEIC has no gain map: \(aux ?? "none")"
        )
        // libheif's decoding of the primary image, and of the auxiliary one.
        try Tool.output("heif-convert", ["--with-aux", "--no-colons", iphone, path("iphone.png")])
        let gainMap = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .first { $0.hasPrefix("iphone-") && $0.contains("hdrgainmap") },
            "heif-convert wrote no gain map"
        )

        let thumbnails = directory.appendingPathComponent("thumbnails")
        try FileManager.default.createDirectory(at: thumbnails, withIntermediateDirectories: true)
        let outcome = try PhotomillBinary.run([
            "inspect", "--json", "--kinds", "hash,thumbnail", "--thumbnail-dir", thumbnails.path,
            path("ultrahdr.jpg"), iphone,
        ])
        let objects = try PhotomillBinary.jsonLines(outcome)
        try #require(objects.count == 2, "\(outcome.stderr)")
        for (object, base, gain) in [
            (objects[0], path("base.png"), path("gainmap.png")), (objects[1], path("iphone.png"), path(gainMap)),
        ] {
            let ours = try #require((object["thumbnail"] as? [String: Any])?["path"] as? String, "\(object)")
            let toBase = try PixelFormatsTests.compare(ours, base)
            let toGain = try PixelFormatsTests.compare(ours, gain)
            #expect(
                toBase.meanDifference <= PixelFormatsTests.meanBound
                    && toBase.hashDistance <= PixelFormatsTests.hashBound,
                "\(object["path"] ?? ""): \(toBase)"
            )
            #expect(
                toGain.hashDistance > toBase.hashDistance + 8,
                "\(object["path"] ?? ""): like the gain map: \(toGain)"
            )
        }
    }

    /// Sony's 10-bit HIF (formats2, a grid whose thumbnails are coded larger than their
    /// `ispe` says) gets a thumbnail and an OCR picture, and they look like the JPEG
    /// preview the camera put in its EXIF (a shot of darkness: black, like the preview).
    @Test func sonyHIFMatchesItsOwnPreview() throws {
        let hif = Corpus.root.appendingPathComponent("formats2/Sony.HIF").path
        try #require(FileManager.default.fileExists(atPath: hif), "formats2 is absent")
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let preview = directory.appendingPathComponent("preview.jpg").path
        try Tool.output("sh", ["-c", "exiftool -b -ThumbnailImage \"$0\" > \"$1\"", hif, preview])
        let outcome = try PhotomillBinary.run([
            "inspect", "--json", "--kinds", "thumbnail,ocr", "--thumbnail-dir", directory.path, hif,
        ])
        let object = try #require(try PhotomillBinary.jsonLines(outcome).first, "\(outcome.stderr)")
        #expect(object["errors"] == nil, "\(object)")
        let thumbnail = try #require(object["thumbnail"] as? [String: Any])
        // 8640×5760, or its 320×212 thumbnail: 256 × 170 or 171.
        #expect(
            thumbnail["width"] as? Int == 256 && (170...171).contains(thumbnail["height"] as? Int ?? 0),
            "\(thumbnail)"
        )
        let comparison = try PixelFormatsTests.compare(try #require(thumbnail["path"] as? String), preview)
        #expect(comparison.meanDifference <= 2, "\(comparison)")
    }
}
