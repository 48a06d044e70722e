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

/// Thumbnails of deep, HDR, wide-gamut, 4:2:2 and gain-map pictures, by `photomill inspect`
/// (the built binary, one process for every fixture), judged against pictures nothing of
/// photomill's made: the SDR source a fixture was encoded from, FFmpeg's own HDR rendering
/// (zscale and the tonemap filter) of the source's coded values, or the file's own SDR
/// preview. Fixtures are made by the tools (ffmpeg's `testsrc2`, `Tests/Media/hdr_fixture.py`
/// from BT.2100's formulas, heif-enc, cjxl, ffmpeg's x265 and x264; `heif_set_nclx.py`
/// adds the `nclx` box heif-enc 1.15 leaves out) and checked with exiftool or ffprobe.
///
/// What a bug looks like, measured on main before issue 27 (libvips' HEIF loader, which
/// ignores `nclx`; FFmpeg frames scaled to RGB24; lcms for a JPEG XL's PQ profile): PQ
/// shown as if it were sRGB is washed out (mean difference 11, hash distance 18–20,
/// spread 35), HLG too bright (mean difference 32), Display P3 too pale (32).
@Suite(
    .ownThread,
    .serialized,
    .enabled(
        if: Tool.allAvailable("ffmpeg", "ffprobe", "heif-enc", "heif-info", "cjxl", "exiftool", "vips", "python3"),
        "needs ffmpeg, libheif-examples, libjxl-tools, exiftool, libvips-tools and python3"
    )
)
struct PixelFormatsTests {
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Media")

    /// How far a thumbnail may be from its reference, as `compare_pictures.py` measures:
    /// the largest difference of the channel means (0–255) and the pHash distance (of 64
    /// bits). Measured on the fixtures below: at most 4.3 and 4 (JPEG at Q 80, x265 and
    /// cjxl compression, shrinking before rather than after the tone curve); main before
    /// issue 27 gave 11–33 and up to 20.
    static let meanBound = 6.0
    static let hashBound = 8
    /// Below this standard deviation of its samples a thumbnail is blank (uniformly black
    /// has 0); the fixtures' thumbnails have 108–121.
    static let spreadFloor = 20.0

    struct Fixture {
        let name: String
        /// The reference picture's file.
        let reference: String
    }

    @Test func deepHDRAndWideGamutPicturesMatchAnIndependentRendering() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        func script(_ name: String, _ arguments: [String]) throws {
            try Tool.output("python3", [Self.scripts.appendingPathComponent(name).path] + arguments)
        }

        // The SDR source: FFmpeg's test pattern (colour bars, gradients, text), 8-bit sRGB.
        try Tool.output(
            "ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360", "-frames:v", "1", path("source.png")]
        )
        // Coded values from BT.2100's formulas, 16 bits: PQ and HLG in BT.2020 (with a band
        // of light four times SDR white, for the tone curve), SDR in BT.709 and in Display P3.
        try script("hdr_fixture.py", [path("source.png"), path("pq.ppm"), "--transfer", "pq", "--highlight"])
        try script("hdr_fixture.py", [path("source.png"), path("hlg.ppm"), "--transfer", "hlg", "--highlight"])
        try script(
            "hdr_fixture.py",
            [path("source.png"), path("sdr.ppm"), "--transfer", "sdr", "--primaries", "bt709"]
        )
        try script("hdr_fixture.py", [path("source.png"), path("p3.ppm"), "--transfer", "sdr", "--primaries", "p3"])
        for name in ["pq", "hlg", "sdr", "p3"] {
            try Tool.output("vips", ["copy", path("\(name).ppm"), path("\(name).png")])
        }

        // References: the SDR source, and FFmpeg's rendering of the HDR values (zscale to
        // linear light with SDR white at 203 cd/m², BT.709 primaries, tonemap=mobius with
        // the knee and peak photomill uses, the sRGB curve).
        for (name, transfer) in [("pq", "smpte2084"), ("hlg", "arib-std-b67")] {
            let chain =
                "zscale=tin=\(transfer):pin=bt2020:min=gbr:rin=full:t=linear:npl=203:p=bt2020:m=gbr:r=full,format=gbrpf32le,"
                + "zscale=pin=bt2020:p=bt709:tin=linear:t=linear:min=gbr:m=gbr,tonemap=tonemap=mobius:param=0.8:desat=0:peak=4.926,"
                + "zscale=tin=linear:t=iec61966-2-1:pin=bt709:p=bt709:min=gbr:m=gbr:r=full,format=rgb24"
            try Tool.output(
                "ffmpeg",
                ["-v", "error", "-i", path("\(name).ppm"), "-vf", chain, path("\(name)-reference.png")]
            )
        }

        var fixtures: [Fixture] = []
        // HEIF and AVIF, 10 bits, with the nclx box cameras write. The matrix is BT.601's
        // (6), which heif-enc 1.15 converts RGB with whatever it is told (measured: told
        // BT.2020's, heif-convert's decoding is off by 1 % on average).
        func heif(_ name: String, from source: String, nclx: [Int], options: [String] = []) throws {
            let bare = path("bare-\(name)")
            try Tool.output(
                "heif-enc",
                [
                    "-b", "10", "-q", "90", "--matrix_coefficients", "\(nclx[2])", "--colour_primaries", "\(nclx[0])",
                    "--transfer_characteristic", "\(nclx[1])", "-o", bare,
                ] + options + [path(source)]
            )
            try script("heif_set_nclx.py", [bare, path(name)] + nclx.map(String.init) + ["1"])
        }
        try heif("pq.heic", from: "pq.png", nclx: [9, 16, 6])
        fixtures.append(Fixture(name: "pq.heic", reference: "pq-reference.png"))
        try heif("hlg.heic", from: "hlg.png", nclx: [9, 18, 6])
        fixtures.append(Fixture(name: "hlg.heic", reference: "hlg-reference.png"))
        try heif("pq-422.heic", from: "pq.png", nclx: [9, 16, 6], options: ["-p", "chroma=422"])
        fixtures.append(Fixture(name: "pq-422.heic", reference: "pq-reference.png"))
        try heif("sdr.heic", from: "sdr.png", nclx: [1, 13, 6])
        fixtures.append(Fixture(name: "sdr.heic", reference: "source.png"))
        try heif("p3.heic", from: "p3.png", nclx: [12, 13, 6])
        fixtures.append(Fixture(name: "p3.heic", reference: "source.png"))
        // libheif 1.15's AV1 encoder aborts on 10-bit 4:2:0 and 4:4:4; 4:2:2 works.
        try heif("pq.avif", from: "pq.png", nclx: [9, 16, 6], options: ["-A", "-p", "chroma=422"])
        fixtures.append(Fixture(name: "pq.avif", reference: "pq-reference.png"))
        let info = try Tool.output("heif-info", [path("pq-422.heic")])
        #expect(info.contains("color profile: nclx"), "\(info)")
        let exif = try ExifTool.values(path("pq.heic"), ["TransferCharacteristics", "BitDepthLuma"])
        #expect(exif["TransferCharacteristics"] as? Int == 16 && exif["BitDepthLuma"] as? Int == 10, "\(exif)")

        // JPEG XL, 16 bits, its colour encoding as cjxl writes it.
        for (name, encoding) in [
            ("pq", "RGB_D65_202_Rel_PeQ"), ("hlg", "RGB_D65_202_Rel_HLG"), ("sdr", "RGB_D65_SRG_Rel_SRG"),
        ] {
            try Tool.output(
                "cjxl",
                [path("\(name).ppm"), path("\(name).jxl"), "-d", "1", "-x", "color_space=\(encoding)"]
            )
            fixtures.append(
                Fixture(name: "\(name).jxl", reference: name == "sdr" ? "source.png" : "\(name)-reference.png")
            )
        }

        // Video: 10-bit HEVC in MP4 (PQ), Matroska (HLG) and QuickTime (PQ, 4:2:2); H.264 in
        // an AVCHD-style transport stream (192-byte packets).
        func video(_ name: String, from source: String, transfer: String, format: String, codec: [String]) throws {
            try Tool.output(
                "ffmpeg",
                [
                    "-v", "error", "-loop", "1", "-i", path(source), "-t", "2", "-r", "10",
                    "-vf", "scale=out_color_matrix=bt2020:out_range=tv,format=\(format)",
                ] + codec
                    + [
                        "-color_primaries", "bt2020", "-color_trc", transfer, "-colorspace", "bt2020nc", "-color_range",
                        "tv", path(name),
                    ]
            )
        }
        let x265 = ["-c:v", "libx265", "-x265-params", "log-level=error"]
        try video(
            "pq.mp4",
            from: "pq.ppm",
            transfer: "smpte2084",
            format: "yuv420p10le",
            codec: x265 + ["-tag:v", "hvc1"]
        )
        fixtures.append(Fixture(name: "pq.mp4", reference: "pq-reference.png"))
        try video("hlg.mkv", from: "hlg.ppm", transfer: "arib-std-b67", format: "yuv420p10le", codec: x265)
        fixtures.append(Fixture(name: "hlg.mkv", reference: "hlg-reference.png"))
        try video("pq-422.mov", from: "pq.ppm", transfer: "smpte2084", format: "yuv422p10le", codec: x265)
        fixtures.append(Fixture(name: "pq-422.mov", reference: "pq-reference.png"))
        try Tool.output(
            "ffmpeg",
            [
                "-v", "error", "-loop", "1", "-i", path("source.png"), "-t", "2", "-r", "25", "-c:v", "libx264",
                "-pix_fmt", "yuv420p", "-x264-params", "keyint=12:open-gop=1:bluray-compat=1",
                "-mpegts_m2ts_mode", "1", "-f", "mpegts", path("avchd.mts"),
            ]
        )
        fixtures.append(Fixture(name: "avchd.mts", reference: "source.png"))
        let probe = try Tool.output(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries",
                "stream=pix_fmt,color_transfer", "-of", "csv=p=0", path("pq-422.mov"),
            ]
        )
        #expect(probe.contains("yuv422p10le") && probe.contains("smpte2084"), "\(probe)")

        let thumbnails = directory.appendingPathComponent("thumbnails")
        try FileManager.default.createDirectory(at: thumbnails, withIntermediateDirectories: true)
        // With hash, each thumbnail is named by its file's MD5 (pq.heic and pq.jxl apart).
        let outcome = try PhotomillBinary.run(
            ["inspect", "--json", "--kinds", "hash,thumbnail", "--thumbnail-dir", thumbnails.path]
                + fixtures.map(\.name),
            in: directory
        )
        let objects = try PhotomillBinary.jsonLines(outcome)
        try #require(objects.count == fixtures.count, "\(outcome.stderr)")
        for (fixture, object) in zip(fixtures, objects) {
            guard let thumbnail = object["thumbnail"] as? [String: Any], let ours = thumbnail["path"] as? String else {
                Issue.record("\(fixture.name): no thumbnail: \(object["errors"] ?? "")")
                continue
            }
            #expect(
                thumbnail["width"] as? Int == 256 && thumbnail["height"] as? Int == 144,
                "\(fixture.name): \(thumbnail)"
            )
            let comparison = try Self.compare(ours, path(fixture.reference))
            #expect(
                comparison.meanDifference <= Self.meanBound && comparison.hashDistance <= Self.hashBound
                    && comparison.spread >= Self.spreadFloor,
                "\(fixture.name) against \(fixture.reference): \(comparison)"
            )
        }

        // Bit flips and truncations of each: a result or a classified error, no crash.
        let hostile = directory.appendingPathComponent("hostile")
        try FileManager.default.createDirectory(at: hostile, withIntermediateDirectories: true)
        let files = fixtures.map { directory.appendingPathComponent($0.name) }
        try HostileVariants.inspect(
            try HostileVariants.write(files, count: 4, seed: 20_261_127, into: hostile),
            in: hostile
        )
    }

    /// `compare_pictures.py`'s measures of `ours` against `reference`.
    struct Comparison: CustomStringConvertible {
        let meanDifference: Double
        /// Mean absolute difference per sample, the reference resized to ours.
        let pixelDifference: Double
        let hashDistance: Int
        let spread: Double
        let raw: String
        var description: String { raw }
    }

    static func compare(_ ours: String, _ reference: String) throws -> Comparison {
        let output = try Tool.output(
            "python3",
            [scripts.appendingPathComponent("compare_pictures.py").path, ours, reference]
        )
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] ?? [:]
        return Comparison(
            meanDifference: object["meanDifference"] as? Double ?? .infinity,
            pixelDifference: object["pixelDifference"] as? Double ?? .infinity,
            hashDistance: object["hashDistance"] as? Int ?? .max,
            spread: object["spread"] as? Double ?? 0,
            raw: output.trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }
}
