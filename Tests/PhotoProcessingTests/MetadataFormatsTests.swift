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

/// Each container's metadata reader against exiftool, on files the tools make here:
/// exiftool writes EXIF into PNG (`eXIf`), JPEG XL (`Exif` box), WebP and JPEG; Python
/// writes the `Raw profile type exif` text chunk older tools write; the `brotli` command
/// compresses JPEG XL boxes into `brob` boxes; ffmpeg makes animated GIF and WebP,
/// Matroska and MTS. Serialized for the child processes.
@Suite(.serialized) struct MetadataFormatsTests {
    /// The EXIF every fixture gets, as exiftool arguments.
    static let exifArguments = [
        "-EXIF:Make=Fixture Maker", "-EXIF:Model=Model 7", "-EXIF:DateTimeOriginal=2021:06:05 14:03:02",
        "-EXIF:OffsetTimeOriginal=+02:00", "-EXIF:FNumber=2.8", "-EXIF:ExposureTime=0.005", "-EXIF:ISO=400",
        "-EXIF:FocalLength=50", "-EXIF:LensModel=Lens 50mm", "-EXIF:Orientation#=6",
        "-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=W",
    ]

    @Test func pngWithEXIfChunk() throws {
        try withFolder { folder in
            let png = try Self.still(in: folder, "a.png")
            try Self.exiftoolWrite(png)
            #expect(try Self.pngChunks(png).contains("eXIf"))
            try Self.expectAgreement(png, format: .png)
        }
    }

    /// The hex text chunk ImageMagick and older tools write: "\nexif\n  LENGTH\nHEX…", in a
    /// zTXt chunk (Python's zlib), holding an "Exif\0\0" block exiftool wrote into a JPEG.
    @Test func pngWithRawProfileTextChunk() throws {
        try withFolder { folder in
            let jpeg = try Self.still(in: folder, "source.jpg")
            try Self.exiftoolWrite(jpeg)
            let png = try Self.still(in: folder, "a.png")
            let script = """
                import sys, zlib, struct, binascii, subprocess
                tiff = subprocess.run(["exiftool", "-b", "-EXIF", sys.argv[1]], capture_output=True, check=True).stdout
                block = b"Exif\\0\\0" + tiff
                text = b"\\nexif\\n%8d\\n" % len(block) + b"\\n".join(binascii.hexlify(block[i:i + 36]) for i in range(0, len(block), 36)) + b"\\n"
                body = b"Raw profile type exif\\0\\0" + zlib.compress(text)
                chunk = struct.pack(">I", len(body)) + b"zTXt" + body + struct.pack(">I", zlib.crc32(b"zTXt" + body))
                data = open(sys.argv[2], "rb").read()
                open(sys.argv[2], "wb").write(data[:33] + chunk + data[33:])
                """
            #expect(try Tool.run("python3", ["-c", script, jpeg.path, png.path]).status == 0)
            #expect(try Self.pngChunks(png).contains("zTXt"))
            try Self.expectAgreement(png, format: .png)
        }
    }

    /// A bare codestream (its size from the SizeHeader), exiftool's container with `Exif`
    /// and `xml ` boxes, and the same boxes Brotli-compressed (`brob`), which exiftool
    /// 12.57 without Perl's Brotli module cannot read: their values must be the plain ones.
    @Test(.enabled(if: Tool.allAvailable("cjxl", "brotli"), "needs cjxl and brotli"))
    func jpegXL() throws {
        try withFolder { folder in
            // Sizes that take each SizeHeader form: small (multiples of 8), each U32
            // width, and each aspect ratio.
            for (width, height) in [
                (64, 48), (40, 40), (37, 29), (1000, 750), (600, 400), (1920, 1080), (640, 512), (100, 50), (5000, 3),
            ] {
                let source = folder.appendingPathComponent("s\(width)x\(height).png")
                try Self.tool(
                    "ffmpeg",
                    [
                        "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:size=\(width)x\(height)", "-frames:v",
                        "1", source.path,
                    ]
                )
                let jxl = folder.appendingPathComponent("s\(width)x\(height).jxl")
                try Self.tool("cjxl", [source.path, jxl.path, "-d", "1"])
                let reference = try Self.exiftool(jxl)
                let metadata = try Self.read(jxl, format: .jxl)
                #expect(
                    "\(metadata.pixelWidth ?? 0) \(metadata.pixelHeight ?? 0)" == reference["ImageSize"] as? String,
                    "\(width)×\(height)"
                )
            }
            let jxl = folder.appendingPathComponent("s64x48.jxl")
            try Self.exiftoolWrite(jxl, extra: ["-m", "-XMP-dc:Title=Fixture title"])
            let boxes = try Self.boxes(jxl)
            #expect(boxes.map(\.type).contains("Exif") && boxes.map(\.type).contains("xml "))
            try Self.expectAgreement(jxl, format: .jxl)
            #expect(try Self.read(jxl, format: .jxl).title == "Fixture title")

            // The same file with its Exif and xml boxes as brob boxes.
            var compressed = Data()
            for box in boxes {
                guard box.type == "Exif" || box.type == "xml " else {
                    compressed += box.whole
                    continue
                }
                let plain = folder.appendingPathComponent("box.bin")
                let packed = folder.appendingPathComponent("box.br")
                try box.payload.write(to: plain)
                try Self.tool("brotli", ["-f", "-o", packed.path, plain.path])
                let body = Data(box.type.utf8) + (try Data(contentsOf: packed))
                compressed += Self.be32(8 + body.count) + Data("brob".utf8) + body
            }
            let brob = folder.appendingPathComponent("brob.jxl")
            try compressed.write(to: brob)
            #expect(try Self.boxes(brob).map(\.type).filter { $0 == "brob" }.count == 2)
            let plain = try Self.read(jxl, format: .jxl)
            let unpacked = try Self.read(brob, format: .jxl)
            #expect(unpacked == plain)
            #expect(unpacked.cameraMake == "Fixture Maker" && unpacked.title == "Fixture title")
        }
    }

    @Test func webpWithExif() throws {
        try withFolder { folder in
            let webp = folder.appendingPathComponent("a.webp")
            try Self.tool(
                "ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "testsrc=size=96x64", "-frames:v", "1", "-c:v", "libwebp",
                    webp.path,
                ]
            )
            try Self.exiftoolWrite(webp)
            try Self.expectAgreement(webp, format: .webp)
        }
    }

    /// A JPEG whose scan data is cut short behind a whole EXIF segment (exiftool writes the
    /// EXIF, `head -c` cuts the file): the metadata is all there, only the pictures fail.
    @Test func damagedPixelsKeepTheMetadata() throws {
        try withFolder { folder in
            let whole = try Self.still(in: folder, "whole.jpg", size: "640x480")
            try Self.exiftoolWrite(whole)
            let data = try Data(contentsOf: whole)
            let cut = folder.appendingPathComponent("cut.jpg")
            try data.prefix(data.count * 6 / 10).write(to: cut)
            try Self.expectAgreement(cut, format: .jpeg)
            let result = PhotoProcessor().process(path: cut.path, kinds: [.metadata, .thumbnail])
            #expect(result.errors[.metadata] == nil)
            #expect(result.metadata?.cameraModel == "Model 7")
            #expect(result.errors[.thumbnail]?.errorClass == .corrupt, "\(String(describing: result.errors))")
        }
    }

    /// exiftool's Duration of animated GIF and WebP made by ffmpeg (10 frames at 8 fps, 12
    /// at 5 fps); a still has none.
    @Test func animatedGIFAndWebP() throws {
        try withFolder { folder in
            let gif = folder.appendingPathComponent("a.gif")
            let webp = folder.appendingPathComponent("a.webp")
            try Self.tool(
                "ffmpeg",
                ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=8", "-frames:v", "10", gif.path]
            )
            try Self.tool(
                "ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=5", "-frames:v", "12",
                    "-c:v", "libwebp_anim", "-loop", "0", webp.path,
                ]
            )
            for (file, format) in [(gif, MediaFormat.gif), (webp, .webp)] {
                let reference = try Self.exiftool(file)
                let duration = try #require(reference["Duration"] as? Double, "\(file.lastPathComponent): \(reference)")
                let metadata = try Self.read(file, format: format)
                #expect(
                    metadata.duration.map { abs($0 - duration) < 0.001 } == true,
                    "\(file.lastPathComponent): \(String(describing: metadata.duration)) vs \(duration)"
                )
            }
            let still = try Self.still(in: folder, "still.gif")
            #expect(try Self.read(still, format: .gif).duration == nil)
        }
    }

    /// Kyocera/Contax N Digital's 156-byte header (big-endian, strings reversed), written
    /// here from exiftool's table; exiftool reads it back.
    @Test func kyoceraRaw() throws {
        try withFolder { folder in
            var header = [UInt8](repeating: 0, count: 156)
            func put(_ at: Int, _ text: String, _ length: Int) {
                // Reversed, then padded: exiftool cuts at the first NUL and reverses.
                let bytes = Array(text.utf8.reversed()) + [UInt8](repeating: 0, count: length - text.utf8.count)
                header.replaceSubrange(at..<(at + length), with: bytes)
            }
            func put(_ at: Int, _ value: UInt32) {
                header.replaceSubrange(at..<(at + 4), with: Array(Self.be32(Int(value))))
            }
            put(0x0C, "N DIGITAL", 12)
            put(0x19, "KYOCERA", 7)
            put(0x21, "2002:11:15 10:20:30", 20)
            put(0x34, 16)  // ISO 200
            put(0x38, 48)  // 2^(48/8)/16000 = 0.004 s
            put(0x58, 32)  // 2^(32/16) = f/4
            put(0x70, 35)  // 35 mm
            let file = folder.appendingPathComponent("a.raw")
            try Data(header + [UInt8](repeating: 0x55, count: 4096)).write(to: file)
            try Self.expectAgreement(
                file,
                format: .kyoceraRaw,
                fields: ["Make", "Model", "DateTimeOriginal", "ExposureTime", "FNumber", "FocalLength"]
            )
            // ISO is a code in the file; exiftool's printed value is the ISO (its -n value the code).
            let printed = try ExifTool.value("ISO", of: file.path, printed: true)
            #expect(try Self.read(file, format: .kyoceraRaw).iso.map(String.init) == printed)
        }
    }

    /// ffmpeg's Matroska and MPEG transport stream: size and duration as exiftool reports
    /// them. exiftool gives no size for ffmpeg's transport stream: ffprobe's stands in; its
    /// duration is the span of the clock references, here two frames (0.08 s at 25 fps)
    /// shorter than the stream's: 0.1 s of tolerance there.
    @Test func matroskaAndTransportStream() throws {
        try withFolder { folder in
            for (name, extra) in [
                ("a.mkv", ["-c:v", "libx264"]),
                ("a.mts", ["-c:v", "libx264", "-f", "mpegts", "-mpegts_m2ts_mode", "1"]),
            ] {
                let file = folder.appendingPathComponent(name)
                try Self.tool(
                    "ffmpeg",
                    ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=2"] + extra + [
                        file.path
                    ]
                )
                let reference = try Self.exiftool(file)
                let result = PhotoProcessor().process(path: file.path, kinds: [.metadata])
                let metadata = try #require(result.metadata, "\(name): \(String(describing: result.errors))")
                let probed = try Tool.run(
                    "ffprobe",
                    [
                        "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of",
                        "csv=s=x:p=0", file.path,
                    ]
                ).stdout.split(separator: "\n").last.map { $0.replacingOccurrences(of: "x", with: " ") }
                let size = reference["ImageSize"] as? String ?? probed
                #expect("\(metadata.pixelWidth ?? 0) \(metadata.pixelHeight ?? 0)" == size, "\(name)")
                let duration = try #require(
                    reference["Duration"] as? Double
                        ?? (reference["Duration"] as? String).flatMap { text in
                            // Matroska's "00:00:02.000000000"
                            text.split(separator: ":").compactMap { Double($0) }.reduce(0) { $0 * 60 + $1 }
                        },
                    "\(name): \(reference)"
                )
                let tolerance = name.hasSuffix(".mts") ? 0.1 : 0.05
                #expect(
                    metadata.duration.map { abs($0 - duration) <= tolerance } == true,
                    "\(name): \(String(describing: metadata.duration)) vs \(duration)"
                )
            }
        }
    }

    // MARK: - Support

    private func withFolder(_ body: (URL) throws -> Void) throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    static func still(in folder: URL, _ name: String, size: String = "96x64") throws -> URL {
        let url = folder.appendingPathComponent(name)
        try tool(
            "ffmpeg",
            ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=\(size)", "-frames:v", "1", url.path]
        )
        return url
    }

    static func tool(_ name: String, _ arguments: [String]) throws {
        try Tool.output(name, arguments)
    }

    static func exiftoolWrite(_ file: URL, extra: [String] = []) throws {
        try tool("exiftool", ["-q", "-overwrite_original"] + extra + exifArguments + [file.path])
    }

    /// exiftool's `-n` values.
    static func exiftool(_ file: URL) throws -> [String: Any] {
        try ExifTool.values(file.path)
    }

    static func read(_ file: URL, format: MediaFormat) throws -> PhotoMetadata {
        try Fixtures.metadata([UInt8](try Data(contentsOf: file)), format: format, path: file.path)
    }

    /// photomill's reading of `file` against exiftool's, field by field (MetadataCorpus' rules).
    static func expectAgreement(
        _ file: URL,
        format: MediaFormat,
        fields: [String]? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let reference = try exiftool(file)
        let metadata = try read(file, format: format)
        let compared =
            fields ?? [
                "Make", "Model", "LensModel", "DateTimeOriginal", "OffsetTimeOriginal", "Orientation",
                "GPSLatitude", "GPSLongitude", "FNumber", "ExposureTime", "ISO", "FocalLength", "ImageSize",
            ]
        for field in compared {
            let value = try #require(
                reference[field],
                "exiftool has no \(field) in \(file.lastPathComponent)",
                sourceLocation: sourceLocation
            )
            let expected: ExiftoolValue = (value as? NSNumber).map { .number($0.doubleValue) } ?? .text("\(value)")
            let ours = MetadataCorpus.value(field, of: metadata)
            #expect(
                expected.agrees(field, ours: ours),
                "\(file.lastPathComponent) \(field): exiftool \(expected), ours \(ours.map { "\($0)" } ?? "absent")",
                sourceLocation: sourceLocation
            )
        }
    }

    /// The chunk types of a PNG, in order.
    static func pngChunks(_ file: URL) throws -> [String] {
        let data = [UInt8](try Data(contentsOf: file))
        var types: [String] = []
        var at = 8
        while at + 8 <= data.count {
            let length = data[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: data[(at + 4)..<(at + 8)], as: UTF8.self))
            at += 12 + length
        }
        return types
    }

    /// The top-level boxes of an ISO base media file.
    static func boxes(_ file: URL) throws -> [(type: String, payload: Data, whole: Data)] {
        let data = try Data(contentsOf: file)
        var result: [(String, Data, Data)] = []
        var at = 0
        while at + 8 <= data.count {
            let size = data[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8, at + size <= data.count else { break }
            result.append(
                (
                    String(decoding: data[(at + 4)..<(at + 8)], as: UTF8.self), data[(at + 8)..<(at + size)],
                    data[at..<(at + size)]
                )
            )
            at += size
        }
        return result
    }

    static func be32(_ value: Int) -> Data {
        Data([UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
