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

/// `RawDecoder` on the corpus's RAWs: a whole DNG (canon_eos_6d.dng: 1224×816 linear raw,
/// 1024×683 JPEG preview) and exiftool's test RAWs, whose image data is stripped. The
/// expected pictures are made by other programs: exiftool extracts the preview, the vips
/// command shrinks and turns it, LibRaw's dcraw_emu renders the samples.
@Suite(
    .enabled(if: Corpus.isAvailable, Corpus.skipMessage),
    .enabled(if: RawCorpus.toolsInstalled, RawCorpus.toolsMessage)
)
final class RawDecoderCorpusTests {
    let directory: URL
    let canon = Corpus.formats.appendingPathComponent("canon_eos_6d.dng")
    init() throws { directory = try temporaryDirectory() }
    deinit { try? FileManager.default.removeItem(at: directory) }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// exiftool's `tag` of `file` (e.g. "IFD0:PreviewImage"), shrunk to `side` by the vips
    /// command: the path of a PNG.
    private func referencePreview(of file: String, tag: String = "IFD0:PreviewImage", side: Int = 256) throws -> String
    {
        try RawTestImages.shell("exiftool -b -\(tag) '\(file)' > '\(path("preview.jpg"))'")
        try RawTestImages.shell("vips thumbnail '\(path("preview.jpg"))' '\(path("reference.png"))' \(side)")
        return path("reference.png")
    }

    /// canon_eos_6d.dng, as Adobe's DNG Converter wrote it, holds a 256×171 JPEG in IFD0
    /// (exiftool: IFD0:PreviewImage, 9624 bytes) and a 1024×683 one in SubIFD1 (57901
    /// bytes, what `exiftool -b -PreviewImage` extracts and LibRaw 0.20 hands over).
    @Test(
        "The picture is the smallest embedded preview that is large enough, shrunk as the vips command shrinks it",
        arguments: [
            (256, "IFD0:PreviewImage", 9624), (600, "SubIFD1:PreviewImage", 57901),
            (1024, "SubIFD1:PreviewImage", 57901),
        ]
    )
    func smallestLargeEnoughPreview(side: Int, tag: String, length: Int) throws {
        let reference = try RawTestImages.load(try referencePreview(of: canon.path, tag: tag, side: side))
        #expect((try FileManager.default.attributesOfItem(atPath: path("preview.jpg"))[.size] as? Int) == length)
        let bytes = try Data(contentsOf: canon)
        let chosen = try #require(
            bytes.withUnsafeBytes { RawDecoder.previewCandidates(in: .memory($0), format: .dng, longestSide: side) }?
                .candidates.first
        )
        let start = try #require(Int(try ExifTool.value("\(tag)Start", of: canon.path, printed: true)))
        #expect(chosen.preview.range == start..<(start + length), "exiftool's \(tag)Start and length")

        let picture = try RawTestImages.decode(canon, longestSide: side).get()
        #expect((picture.width, picture.height) == (reference.width, reference.height))
        #expect(picture.bands == 3)
        // A rendering of the samples differs from Adobe's preview by 12 on average.
        #expect(try RawTestImages.meanAbsoluteDifference(picture, reference) < 1)
    }

    @Test(
        "The RAW's orientation turns the preview, which is stored as the sensor saw it",
        arguments: [(3, "d180", 3), (6, "d90", 6), (8, "d270", 5)]
    )
    func orientationTurnsThePreview(orientation: Int, rotation: String, flip: Int) throws {
        let reference = try referencePreview(of: canon.path)
        try RawTestImages.shell("vips rot '\(reference)' '\(path("turned.png"))' \(rotation)")
        let turned = try RawTestImages.load(path("turned.png"))
        let copy = path("oriented.dng")
        try RawTestImages.shell("exiftool -q -n -Orientation=\(orientation) -o '\(copy)' '\(canon.path)'")
        let identify = try Tool.run("raw-identify", ["-v", copy]).stdout
        try #require(
            identify.contains("Image flip: \(flip)"),
            "LibRaw reads Orientation \(orientation) as flip \(flip)"
        )

        let picture = try RawTestImages.decode(URL(fileURLWithPath: copy), longestSide: 256).get()
        #expect((picture.width, picture.height) == (turned.width, turned.height))
        #expect(try RawTestImages.meanAbsoluteDifference(picture, turned) < 1)
    }

    @Test("Larger than the preview, the picture is LibRaw's half-size rendering, as dcraw_emu -h makes it")
    func largerThanThePreviewRendersTheSamples() throws {
        let copy = path("canon.dng")
        try FileManager.default.copyItem(atPath: canon.path, toPath: copy)
        // -w camera white balance, -h half size, -g the sRGB curve; sRGB output is the default.
        try RawTestImages.shell("dcraw_emu -w -h -g 2.4 12.92 '\(copy)'")
        let rendered = try RawTestImages.load(copy + ".ppm")

        // Nothing larger than the rendering (a linear DNG has no Bayer cells to halve).
        let whole = try RawTestImages.decode(canon, longestSide: 2000).get()
        #expect((whole.width, whole.height) == (rendered.width, rendered.height))
        #expect(try RawTestImages.meanAbsoluteDifference(whole, rendered) < 1)

        // Between the preview (1024) and the rendering (1224): the rendering, shrunk.
        try RawTestImages.shell("vips thumbnail '\(copy).ppm' '\(path("shrunk.png"))' 1100")
        let shrunk = try RawTestImages.load(path("shrunk.png"))
        let picture = try RawTestImages.decode(canon, longestSide: 1100).get()
        #expect((picture.width, picture.height) == (shrunk.width, shrunk.height))
        #expect(try RawTestImages.meanAbsoluteDifference(picture, shrunk) < 1)
    }

    /// exiftool's test RAWs keep their headers (raw-identify names the camera and the
    /// sensor size) but not their image data, and their previews are 26–29 bytes.
    @Test(
        "exiftool's stripped RAWs fail as corrupt, naming the file and the cause",
        arguments: ["CanonRaw.cr3", "DNG.dng", "FujiFilm.raf", "Nikon.nef", "Panasonic.rw2"]
    )
    func strippedRaws(name: String) throws {
        let file = Corpus.formats.appendingPathComponent(name)
        let identify = try Tool.run("raw-identify", ["-v", file.path]).stdout
        let fullSize = try #require(identify.split(separator: "\n").first { $0.hasPrefix("Full size:") })
        let sides = fullSize.dropFirst("Full size:".count).split(separator: "x").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)

        for longestSide in [256, 4096] {
            let result = try RawTestImages.decode(file, longestSide: longestSide)
            guard case .failure(let error) = result else {
                Issue.record("\(name) gave a picture")
                continue
            }
            #expect(error.errorClass == .corrupt)
            #expect(error.message.hasPrefix(file.path + ": the RAW holds no usable image data"))
            #expect(
                error.message.contains("its \(bytes) bytes cannot hold a \(sides[0])×\(sides[1]) raw image"),
                "\(error.message)"
            )
        }
    }

    @Test("A CR2 that LibRaw cannot open, from a camera it supports, is corrupt")
    func strippedCR2() throws {
        let file = Corpus.formats.appendingPathComponent("CanonRaw.cr2")
        let identify = try Tool.run("sh", ["-c", "raw-identify '\(file.path)' 2>&1"]).stdout
        #expect(identify.contains("Unsupported file format or not RAW file"))
        let model = try ExifTool.value("Model", of: file.path, printed: true)
        #expect(model == "Canon EOS 350D DIGITAL")

        let error = try #require(try RawTestImages.decode(file, longestSide: 256).failure)
        #expect(error.errorClass == .corrupt)
        #expect(error.message.hasPrefix(file.path + ": the RAW holds no usable image data"))
        #expect(error.message.contains("LibRaw supports the \(model)"))
        #expect(error.message.contains("Unsupported file format or not RAW file"))
    }

    @Test("Samples LibRaw finds corrupt as it reads them fail, with the offset dcraw_emu reports")
    func corruptSamples() throws {
        // Nikon.nef padded with zeros to a plausible size for its 3040×2014 sensor, so
        // that LibRaw reads its Huffman-coded samples (where only 18 bytes are left).
        let padded = path("padded.nef")
        var bytes = try Data(contentsOf: Corpus.formats.appendingPathComponent("Nikon.nef"))
        bytes.append(Data(count: 3040 * 2014 / RawDecoder.pixelsPerByteFloor))
        try bytes.write(to: URL(fileURLWithPath: padded))
        let report = try Tool.run("sh", ["-c", "dcraw_emu -h '\(padded)' 2>&1"]).stdout
        let offset = try #require(
            report.split(separator: "\n").first { $0.contains("data corrupted at") }?
                .split(separator: " ").last,
            "dcraw_emu reports no corrupt data: \(report)"
        )

        let error = try #require(try RawTestImages.decode(URL(fileURLWithPath: padded), longestSide: 256).failure)
        #expect(error.errorClass == .corrupt)
        #expect(
            error.message.hasPrefix(
                padded + ": the RAW's image data is damaged (LibRaw: data corrupted at byte \(offset);"
            ),
            "\(error.message)"
        )
    }

    @Test("Truncated and bit-flipped copies of a DNG give a picture or a classified error", .timeLimit(.minutes(2)))
    func damagedCopies() throws {
        let whole = try Data(contentsOf: canon)
        var random = SplitMix64(seed: 0x52A3)
        for index in 0..<48 {
            var bytes = whole
            if index % 2 == 0 {
                bytes = bytes.prefix(random.int(in: 8...(whole.count - 1)))
            } else {
                // Most flips land in the headers (the first 140 KB hold IFDs, tables and
                // the small preview), where they change what the file claims.
                for _ in 0..<random.int(in: 1...8) {
                    let offset = random.int(in: 0...(random.int(in: 0...1) == 0 ? 4095 : whole.count - 1))
                    bytes[offset] ^= UInt8(1 << random.int(in: 0...7))
                }
            }
            let name = "damaged-\(index).dng"
            switch RawTestImages.decode(bytes, path: name, longestSide: 256) {
            case .success(let picture):
                #expect(picture.bands == 3 && max(picture.width, picture.height) <= 256)
                #expect(try picture.pixels().count == picture.width * picture.height * 3)
            case .failure(let error):
                #expect([.corrupt, .unsupportedFormat, .tooLarge].contains(error.errorClass), "\(error)")
                #expect(error.message.hasPrefix(name + ": "))
            }
        }
    }
}
