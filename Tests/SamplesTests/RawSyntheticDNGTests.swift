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

/// `SyntheticDNG` as exiftool and LibRaw's own tools read it, and `RawDecoder` on such
/// files: orientation, preview or rendering, pixel limit, damage. (Here rather than in
/// PhotoProcessingTests because that target cannot import Samples.)
final class RawSyntheticDNGTests {
    static let toolsInstalled = ["exiftool", "raw-identify", "dcraw_emu", "vipsheader"].allSatisfy {
        Tool.path(of: $0) != nil
    }

    /// The stored picture's corners — red, green / blue, white — as an upright picture
    /// shows them for each EXIF orientation: [top left, top right, bottom left, bottom
    /// right]. Worked out by hand from the EXIF definitions, and what `vips autorot`
    /// makes of a JPEG with such quadrants.
    static let uprightCorners: [Int: [String]] = [
        1: ["red", "green", "blue", "white"],
        2: ["green", "red", "white", "blue"],
        3: ["white", "blue", "green", "red"],
        4: ["blue", "white", "red", "green"],
        5: ["red", "blue", "green", "white"],
        6: ["blue", "red", "white", "green"],
        7: ["white", "green", "blue", "red"],
        8: ["green", "white", "red", "blue"],
    ]

    let directory: URL
    init() throws { directory = try temporaryDirectory() }
    deinit { try? FileManager.default.removeItem(at: directory) }

    private func write(_ dng: SyntheticDNG, _ name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try dng.write(to: url)
        return url
    }

    private func decode(
        _ bytes: Data,
        longestSide: Int,
        pixelLimit: Int = 200_000_000
    ) -> Result<VipsImageRef, ProcessingError> {
        bytes.withUnsafeBytes { buffer in
            Result { () throws(ProcessingError) in
                try RawDecoder.picture(
                    of: .memory(buffer),
                    format: .dng,
                    path: "synthetic.dng",
                    longestSide: longestSide,
                    pixelLimit: pixelLimit
                )
            }
        }
    }

    private func decode(
        _ url: URL,
        longestSide: Int,
        pixelLimit: Int = 200_000_000
    ) throws -> Result<VipsImageRef, ProcessingError> {
        decode(try Data(contentsOf: url), longestSide: longestSide, pixelLimit: pixelLimit)
    }

    /// The colour names of the four corners, sampled an eighth of the way in.
    private func corners(of pixels: [UInt8], width: Int, height: Int) -> [String] {
        let points = [
            (width / 8, height / 8), (width * 7 / 8, height / 8), (width / 8, height * 7 / 8),
            (width * 7 / 8, height * 7 / 8),
        ]
        return points.map { x, y in
            let index = (y * width + x) * 3
            let (r, g, b) = (Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]))
            switch (r > 180, g > 180, b > 180) {
            case (true, true, true): return "white"
            case (true, false, false) where g < 100 && b < 100: return "red"
            case (false, true, false) where r < 100 && b < 100: return "green"
            case (false, false, true) where r < 100 && g < 100: return "blue"
            default: return "(\(r), \(g), \(b))"
            }
        }
    }

    private func corners(of picture: VipsImageRef) throws -> [String] {
        try #require(picture.bands == 3)
        return corners(of: try picture.pixels(), width: picture.width, height: picture.height)
    }

    // MARK: The generator

    @Test(
        "exiftool validates the DNG; raw-identify and dcraw_emu read its size, preview, pattern and orientation",
        .enabled(if: toolsInstalled, "exiftool or libraw-bin is not installed")
    )
    func generatorWritesAValidDNG() throws {
        let url = try write(
            SyntheticDNG(width: 1024, height: 768, orientation: 6, previews: [.init(longestSide: 512)]),
            "six.dng"
        )

        let tags = try Tool.run(
            "exiftool",
            [
                "-s3", "-Validate", "-SubIFD:ImageWidth", "-SubIFD:ImageHeight",
                "-SubIFD:BitsPerSample", "-SubIFD:CFAPattern2", "-IFD0:Orientation",
                "-DNGVersion", "-IFD0:ImageWidth", "-IFD0:ImageHeight", "-n", url.path,
            ]
        )
        let values = tags.stdout.split(separator: "\n")
        // -n: 0 errors, 0 warnings
        #expect(values == ["0 0 0", "1024", "768", "16", "0 1 1 2", "6", "1 4 0 0", "512", "384"])

        let identify = try Tool.run("raw-identify", ["-v", url.path]).stdout
        for line in [
            "Full size:   1024 x 768", "Thumb size:   512 x 384", "Image flip: 6", "Filter pattern: RGGBRGGBRGGBRGGB",
        ] {
            #expect(identify.contains(line), "raw-identify -v lacks \"\(line)\"")
        }

        // dcraw_emu renders it turned upright, in the colours the quadrants were written with.
        #expect(try Tool.run("dcraw_emu", ["-w", "-h", url.path]).status == 0)
        let ppm = try Data(contentsOf: URL(fileURLWithPath: url.path + ".ppm"))
        let header = "P6\n384 512\n255\n"
        try #require(ppm.starts(with: Data(header.utf8)), "dcraw_emu wrote no 384×512 PPM")
        #expect(corners(of: Array(ppm.dropFirst(header.utf8.count)), width: 384, height: 512) == Self.uprightCorners[6])
    }

    @Test("Sides that are odd or too small are refused")
    func generatorRefusesOddSides() {
        #expect(throws: SampleError.self) { try write(SyntheticDNG(width: 101, height: 100), "odd.dng") }
        #expect(throws: SampleError.self) { try write(SyntheticDNG(width: 32, height: 32), "tiny.dng") }
    }

    // MARK: The decoder

    /// dcraw_emu's half-size rendering of the file at `url`, as the colour names of its
    /// corners: what LibRaw's own tool makes of the sensor data and the orientation.
    private func dcrawCorners(_ url: URL) throws -> [String] {
        let run = try Tool.run("dcraw_emu", ["-w", "-h", url.path])
        try #require(run.status == 0, "dcraw_emu: \(run.stderr)")
        let ppm = try image(atPath: url.path + ".ppm")
        return corners(of: ppm.pixels, width: ppm.width, height: ppm.height)
    }

    /// An image file a command-line tool wrote, as 8-bit pixels.
    private func image(atPath path: String) throws -> (width: Int, height: Int, bands: Int, pixels: [UInt8]) {
        try Data(contentsOf: URL(fileURLWithPath: path)).withUnsafeBytes { buffer in
            let image = try VipsImageRef.header(of: buffer)
            return (image.width, image.height, image.bands, try image.pixels())
        }
    }

    @Test(
        "Every orientation comes out upright, from the preview and from the samples, as dcraw_emu turns it",
        .enabled(if: toolsInstalled, "libraw-bin is not installed"),
        arguments: 1...8
    )
    func everyOrientationIsUpright(orientation: Int) throws {
        let turned = orientation >= 5
        for preview in [320, nil] {
            let url = try write(
                SyntheticDNG(
                    width: 640,
                    height: 480,
                    orientation: orientation,
                    previews: preview.map { [.init(longestSide: $0)] } ?? []
                ),
                "o\(orientation).dng"
            )
            // LibRaw's own tool agrees with the table worked out by hand.
            #expect(try dcrawCorners(url) == Self.uprightCorners[orientation], "dcraw_emu, orientation \(orientation)")
            let picture = try decode(url, longestSide: 256).get()
            #expect((picture.width, picture.height) == (turned ? (192, 256) : (256, 192)))
            #expect(
                try corners(of: picture) == Self.uprightCorners[orientation],
                "orientation \(orientation), \(preview == nil ? "rendered" : "preview")"
            )
        }
    }

    @Test(
        "A bitmap preview (uncompressed RGB) is used as a JPEG one is: simple_dcraw's extraction, shrunk and turned by vips",
        .enabled(
            if: toolsInstalled && Tool.path(of: "simple_dcraw") != nil && Tool.path(of: "vips") != nil,
            "libraw-bin or libvips-tools is not installed"
        )
    )
    func bitmapPreview() throws {
        let url = try write(
            SyntheticDNG(
                width: 640,
                height: 480,
                orientation: 6,
                previews: [.init(longestSide: 320, encoding: .uncompressedRGB)]
            ),
            "bitmap.dng"
        )
        #expect(try Tool.run("exiftool", ["-s3", "-Validate", url.path]).stdout == "OK\n")
        let identify = try Tool.run("raw-identify", ["-v", url.path]).stdout
        for line in ["Thumb size:   320 x 240", "Image flip: 6"] {
            #expect(identify.contains(line), "raw-identify -v lacks \"\(line)\"")
        }
        // LibRaw's simple_dcraw -e writes a bitmap thumbnail as a PPM (a JPEG one as
        // .thumb.jpg), as stored: unturned. vips shrinks it and turns it (flip 6: d90).
        #expect(try Tool.run("simple_dcraw", ["-e", url.path]).status == 0)
        let extracted = url.path + ".thumb.ppm"
        try #require(FileManager.default.fileExists(atPath: extracted), "simple_dcraw extracted no bitmap thumbnail")
        let shrunk = directory.appendingPathComponent("bitmap-256.png").path
        let turned = directory.appendingPathComponent("bitmap-turned.png").path
        #expect(try Tool.run("vips", ["thumbnail", extracted, shrunk, "256"]).status == 0)
        #expect(try Tool.run("vips", ["rot", shrunk, turned, "d90"]).status == 0)
        let reference = try image(atPath: turned)

        // The last quarter of the samples cut off, so that only the preview can give a picture.
        let whole = try Data(contentsOf: url)
        let picture = try decode(whole.prefix(whole.count - 640 * 480 / 2), longestSide: 256).get()
        try #require(
            (picture.width, picture.height, picture.bands) == (reference.width, reference.height, reference.bands)
        )
        let pixels = try picture.pixels()
        let difference =
            Double(zip(pixels, reference.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(pixels.count)
        #expect(difference < 1, "mean absolute difference \(difference) from simple_dcraw + vips")
        #expect(corners(of: pixels, width: picture.width, height: picture.height) == Self.uprightCorners[6])
    }

    @Test(
        "The RAW's orientation wins over the preview JPEG's own EXIF",
        .enabled(if: toolsInstalled, "exiftool is not installed")
    )
    func rawOrientationBeatsThePreviewsExif() throws {
        let url = try write(
            SyntheticDNG(
                width: 640,
                height: 480,
                orientation: 6,
                previews: [.init(longestSide: 320, exifOrientation: 3)]
            ),
            "disagree.dng"
        )
        let preview = directory.appendingPathComponent("preview.jpg").path
        let extract = try Tool.run("sh", ["-c", "exiftool -b -PreviewImage '\(url.path)' > '\(preview)'"])
        try #require(extract.status == 0)
        let own = try Tool.run("exiftool", ["-s3", "-n", "-Orientation", preview])
        #expect(own.stdout == "3\n", "the preview carries its own Orientation 3")

        let picture = try decode(url, longestSide: 256).get()
        #expect((picture.width, picture.height) == (192, 256))
        #expect(try corners(of: picture) == Self.uprightCorners[6])
    }

    @Test(
        "The preview is used only when it is large enough; damaged samples fail, and say so as dcraw_emu does",
        .enabled(if: toolsInstalled, "libraw-bin is not installed")
    )
    func previewOrSamples() throws {
        let url = try write(SyntheticDNG(width: 1024, height: 768, previews: [.init(longestSide: 320)]), "preview.dng")
        let whole = try Data(contentsOf: url)
        let identify = try Tool.run("raw-identify", ["-v", url.path]).stdout
        #expect(identify.contains("Thumb size:   320 x 240"), "raw-identify -v: \(identify)")

        // Larger than the preview: the half-size rendering (512×384), shrunk.
        let rendered = try decode(whole, longestSide: 400).get()
        #expect((rendered.width, rendered.height) == (400, 300))

        // The last quarter of the samples cut off: the preview does not need them…
        let cut = whole.prefix(whole.count - 1024 * 768 / 2)
        let fromPreview = try decode(cut, longestSide: 256).get()
        #expect((fromPreview.width, fromPreview.height) == (256, 192))
        #expect(try corners(of: fromPreview) == Self.uprightCorners[1])

        // …a rendering does: LibRaw reports the short data, then fails with an I/O error,
        // as dcraw_emu shows ("Unexpected end of file", then "Cannot unpack …").
        let cutURL = directory.appendingPathComponent("cut.dng")
        try cut.write(to: cutURL)
        let dcraw = try Tool.run("dcraw_emu", ["-w", "-h", cutURL.path]).stderr
        #expect(dcraw.contains("Unexpected end of file") && dcraw.contains("Input/output error"), "dcraw_emu: \(dcraw)")
        let error = try #require(decode(cut, longestSide: 400).failure)
        #expect(error.errorClass == .corrupt)
        #expect(
            error.message
                == "synthetic.dng: the RAW's image data is damaged (LibRaw: Input/output error: the data ends early; preview: only 320×240)"
        )
    }

    @Test(
        "Over the pixel limit, the RAW is refused before anything is unpacked",
        .enabled(if: toolsInstalled, "libraw-bin is not installed")
    )
    func pixelLimit() throws {
        let url = try write(SyntheticDNG(width: 2000, height: 1000, previews: [.init(longestSide: 300)]), "two-mp.dng")
        let identify = try Tool.run("raw-identify", ["-v", url.path]).stdout
        let fullSize = identify.split(separator: "\n").first { $0.hasPrefix("Full size:") }
        #expect(fullSize?.split(separator: " ").suffix(3) == ["2000", "x", "1000"], "raw-identify -v: \(identify)")
        let refused = try #require(try decode(url, longestSide: 256, pixelLimit: 1_999_999).failure)
        #expect(refused.errorClass == .tooLarge)
        #expect(refused.message == "synthetic.dng: 2000×1000 is 2 megapixels, over the limit of 1")
        #expect(try decode(url, longestSide: 256, pixelLimit: 2_000_000).get().width == 256)
    }

    @Test(
        "A DNG in an encoding LibRaw lacks is an unsupported format",
        .enabled(if: toolsInstalled, "exiftool or libraw-bin is not installed")
    )
    func unsupportedCompression() throws {
        // The raw IFD (IFD0, without a preview) relabelled as JPEG XL, compression 52546.
        let url = try write(SyntheticDNG(width: 640, height: 480), "jxl.dng")
        var bytes = try Data(contentsOf: url)
        let entries = Int(bytes[8]) | Int(bytes[9]) << 8
        let compression = try #require(
            (0..<entries).map { 10 + 12 * $0 }.first { bytes[$0] == 0x03 && bytes[$0 + 1] == 0x01 }
        )
        bytes[compression + 8] = UInt8(52546 & 0xFF)
        bytes[compression + 9] = UInt8(52546 >> 8)
        try bytes.write(to: url)
        let identify = try Tool.run("raw-identify", [url.path])
        #expect(identify.stderr.contains("Unsupported file format"), "raw-identify: \(identify.stderr)")
        let tag = try Tool.run("exiftool", ["-s3", "-n", "-Compression", url.path])
        #expect(tag.stdout == "52546\n")

        let error = try #require(try decode(url, longestSide: 256).failure)
        #expect(error.errorClass == .unsupportedFormat)
        #expect(error.message.hasPrefix("synthetic.dng: LibRaw "))
        #expect(error.message.contains("cannot decode this DNG 1.4.0.0"))
    }

    @Test("An empty file is not an image")
    func emptyFile() {
        #expect(
            decode(Data(), longestSide: 256).failure == ProcessingError(.notAnImage, "synthetic.dng: the file is empty")
        )
    }

    @Test("Truncated and bit-flipped DNGs give a picture or a classified error", .timeLimit(.minutes(2)))
    func damagedCopies() throws {
        let url = try write(
            SyntheticDNG(width: 512, height: 384, orientation: 8, previews: [.init(longestSide: 200)]),
            "fuzz.dng"
        )
        let whole = try Data(contentsOf: url)
        let headers = 4095  // directories, the preview JPEG, the first raw rows
        var random = SplitMix64(seed: 0xD6)
        var outcomes: [String: Int] = [:]
        for index in 0..<64 {
            var bytes = whole
            if index % 4 == 0 {
                bytes = bytes.prefix(random.int(in: 8...(whole.count - 1)))
            } else {
                for _ in 0..<random.int(in: 1...4) {
                    bytes[random.int(in: 0...headers)] ^= UInt8(1 << random.int(in: 0...7))
                }
            }
            for longestSide in [128, 256] {
                switch decode(bytes, longestSide: longestSide) {
                case .success(let picture):
                    outcomes["picture", default: 0] += 1
                    #expect(picture.bands == 3 && max(picture.width, picture.height) <= longestSide)
                    #expect(try picture.pixels().count == picture.width * picture.height * 3)
                case .failure(let error):
                    outcomes[error.errorClass.rawValue, default: 0] += 1
                    #expect([.corrupt, .unsupportedFormat, .tooLarge].contains(error.errorClass), "\(error)")
                    #expect(error.message.hasPrefix("synthetic.dng: "))
                }
            }
        }
        // Both outcomes occur, so the test exercises more than one path.
        #expect(outcomes["picture", default: 0] > 0 && outcomes["corrupt", default: 0] > 0, "\(outcomes)")
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
