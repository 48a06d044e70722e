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

/// The preview `RawDecoder` decodes from a DNG laid out as Adobe's DNG Converter lays out
/// "full size" previews (../shared/corpus/formats/DNG.dng): a 256-pixel RGB thumbnail in
/// IFD0, a 1024-pixel JPEG in SubIFD1, a full-size JPEG in SubIFD2. What exiftool says of
/// each (where it lies, its bytes) is the reference; the vips command shrinks and turns it.
final class RawPreviewChoiceTests {
    static let toolsInstalled = ["exiftool", "vips", "raw-identify"].allSatisfy { Tool.path(of: $0) != nil }

    let directory: URL
    let url: URL
    /// 2048×1366 with orientation 6: upright it is 1366 wide, 2048 high.
    let dng = SyntheticDNG(
        width: 2048,
        height: 1366,
        orientation: 6,
        previews: [
            .init(longestSide: 256, encoding: .uncompressedRGB), .init(longestSide: 1024), .init(longestSide: 2048),
        ]
    )

    init() throws {
        directory = try temporaryDirectory()
        url = directory.appendingPathComponent("adobe.dng")
        try dng.write(to: url)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    private func exiftool(_ arguments: [String]) throws -> String {
        try ExifTool.run(arguments + [url.path])
    }

    private func integer(_ tag: String) throws -> Int {
        try #require(
            Int(try exiftool(["-s3", "-n", "-" + tag]).trimmingCharacters(in: .whitespacesAndNewlines)),
            "exiftool -\(tag)"
        )
    }

    @Test(
        "exiftool validates the layout and lists its previews where it lists DNG.dng's",
        .enabled(if: toolsInstalled, "exiftool, libvips-tools or libraw-bin is not installed")
    )
    func layoutIsTheConverters() throws {
        #expect(try exiftool(["-s3", "-Validate"]) == "OK\n")
        let listing = try exiftool([
            "-a", "-G1", "-s", "-PreviewImage", "-JpgFromRaw", "-IFD0:ImageWidth", "-IFD0:Compression", "-n",
        ])
        for line in [
            "[IFD0]          ImageWidth                      : 256",
            "[IFD0]          Compression                     : 1",
            "[SubIFD1]       PreviewImage", "[SubIFD2]       JpgFromRaw",
        ] {
            #expect(listing.contains(line), "exiftool lists \(line): \(listing)")
        }
        // LibRaw knows the file and takes the largest preview as its thumbnail.
        let identify = try Tool.run("raw-identify", ["-v", url.path]).stdout
        #expect(identify.contains("Thumb size:  2048 x 1366"), "raw-identify -v: \(identify)")
    }

    /// The corpus's DNG.dng, made by the DNG Converter with "full size" previews.
    static let corpusDNG = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus/formats/DNG.dng")

    @Test(
        "Directory by directory, the layout is DNG.dng's, but for the raw image's compression (ours is uncompressed)",
        .enabled(if: toolsInstalled, "exiftool, libvips-tools or libraw-bin is not installed"),
        .enabled(
            if: FileManager.default.fileExists(atPath: corpusDNG.path),
            "../shared/corpus is absent (a fresh clone): skipped"
        )
    )
    func layoutIsDNGdngs() throws {
        func listing(_ file: URL) throws -> [String] {
            let output = try Tool.run(
                "exiftool",
                [
                    "-a", "-G1", "-s", "-n", "-SubfileType", "-Compression",
                    "-PhotometricInterpretation", file.path,
                ]
            )
            return output.stdout.split(separator: "\n").map(String.init)
                .filter { !$0.hasPrefix("[SubIFD]        Compression") }
        }
        let ours = try listing(url)
        let corpus = try listing(Self.corpusDNG)
        #expect(ours.count == 11 && ours == corpus, "ours: \(ours)\nDNG.dng: \(corpus)")
    }

    /// Each side, the preview expected (as exiftool names its offset and length tags) and
    /// the picture's upright size.
    @Test(
        "Each size takes the smallest preview that reaches it, upright, as exiftool extracts it and vips turns it",
        .enabled(if: toolsInstalled, "exiftool, libvips-tools or libraw-bin is not installed"),
        arguments: [
            (128, "IFD0:StripOffsets", "IFD0:StripByteCounts"), (256, "IFD0:StripOffsets", "IFD0:StripByteCounts"),
            (300, "SubIFD1:PreviewImageStart", "SubIFD1:PreviewImageLength"),
            (1024, "SubIFD1:PreviewImageStart", "SubIFD1:PreviewImageLength"),
            (1100, "SubIFD2:JpgFromRawStart", "SubIFD2:JpgFromRawLength"),
        ]
    )
    func smallestPreviewThatReaches(side: Int, start: String, length: String) throws {
        let bytes = try Data(contentsOf: url)
        let candidates = try #require(
            bytes.withUnsafeBytes { RawDecoder.previewCandidates(in: .memory($0), format: .dng, longestSide: side) }
        )
        let offset = try integer(start)
        #expect(candidates.candidates.first?.preview.range == offset..<(offset + (try integer(length))))

        // The same picture from exiftool's extraction: ThumbnailTIFF wraps IFD0's RGB
        // strip, PreviewImage and JpgFromRaw are the JPEGs as stored.
        let tag = start.hasPrefix("IFD0") ? "ThumbnailTIFF" : start.replacingOccurrences(of: "Start", with: "")
        let extracted = directory.appendingPathComponent("extracted-\(side)")
        let reference = directory.appendingPathComponent("reference-\(side).png").path
        #expect(try Tool.run("sh", ["-c", "exiftool -b -\(tag) '\(url.path)' > '\(extracted.path)'"]).status == 0)
        let shrunk = directory.appendingPathComponent("shrunk-\(side).v").path
        #expect(try Tool.run("vips", ["thumbnail", extracted.path, shrunk, "\(side)", "--no-rotate"]).status == 0)
        #expect(try Tool.run("vips", ["rot", shrunk, reference, "d90"]).status == 0)
        let expected = try pixels(reference)
        let picture = try bytes.withUnsafeBytes { buffer in
            try RawDecoder.picture(
                of: .memory(buffer),
                format: .dng,
                path: url.path,
                longestSide: side,
                pixelLimit: 200_000_000
            )
        }
        try #require((picture.width, picture.height) == (expected.width, expected.height))
        #expect(max(picture.width, picture.height) == side)
        let difference = zip(try picture.pixels(), expected.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(expected.pixels.count) < 1)
    }

    @Test(
        "Larger than every preview, the samples are rendered (half size: 1024×683, upright)",
        .enabled(if: toolsInstalled, "exiftool, libvips-tools or libraw-bin is not installed")
    )
    func largerThanEveryPreview() throws {
        let bytes = try Data(contentsOf: url)
        #expect(
            bytes.withUnsafeBytes { RawDecoder.previewCandidates(in: .memory($0), format: .dng, longestSide: 2049) }?
                .candidates.isEmpty == true
        )
        let picture = try bytes.withUnsafeBytes { buffer in
            try RawDecoder.picture(
                of: .memory(buffer),
                format: .dng,
                path: url.path,
                longestSide: 2049,
                pixelLimit: 200_000_000
            )
        }
        #expect((picture.width, picture.height) == (683, 1024))
    }

    @Test("Read from the file, a thumbnail reads the directories and the preview, not the samples")
    func readsOnlyWhatItNeeds() throws {
        let file = try #require(FileRegions(path: url.path))
        let picture = try RawDecoder.picture(
            of: .file(file),
            format: .dng,
            path: url.path,
            longestSide: 256,
            pixelLimit: 200_000_000
        )
        #expect((picture.width, picture.height) == (171, 256))
        // The head, then the 256×171 RGB strip (131,328 bytes); the samples are 5.6 MB.
        #expect(
            file.bytesRead <= RawDecoder.headLength + 256 * 171 * 3,
            "\(file.bytesRead) of \(file.count) bytes read"
        )
        let whole = try Data(contentsOf: url).withUnsafeBytes { buffer in
            try RawDecoder.picture(
                of: .memory(buffer),
                format: .dng,
                path: url.path,
                longestSide: 256,
                pixelLimit: 200_000_000
            ).pixels()
        }
        #expect(try picture.pixels() == whole)
    }

    private func pixels(_ path: String) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        try Data(contentsOf: URL(fileURLWithPath: path)).withUnsafeBytes { buffer in
            let image = try VipsImageRef.header(of: buffer)
            return (image.width, image.height, try image.pixels())
        }
    }
}
