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

/// `EmbeddedPreviews` on the corpus's DNGs and RW2 against exiftool, which names every
/// preview it finds (PreviewImage, JpgFromRaw, the uncompressed ThumbnailTIFF), and against
/// LibRaw's `raw-identify` for the orientation.
@Suite(
    .enabled(if: Corpus.isAvailable, Corpus.skipMessage),
    .enabled(if: RawCorpus.toolsInstalled, RawCorpus.toolsMessage)
)
final class EmbeddedPreviewsCorpusTests {
    let directory: URL
    init() throws { directory = try temporaryDirectory() }
    deinit { try? FileManager.default.removeItem(at: directory) }

    private func found(_ url: URL) throws -> EmbeddedPreviews {
        let bytes = try Data(contentsOf: url)
        let format = try #require(
            MediaFormat(sniffing: Array(bytes.prefix(MediaFormat.headLength)), fileExtension: url.pathExtension)
        )
        return try #require(bytes.withUnsafeBytes { EmbeddedPreviews(head: $0, fileSize: $0.count, format: format) })
    }

    /// exiftool's `-b -TAG` of `file` (`-m`: it extracts the stripped files' 26-byte
    /// stubs only when told to ignore that they are not valid JPEGs).
    private func extract(_ tag: String, _ file: URL) throws -> Data {
        let out = directory.appendingPathComponent("\(tag.replacingOccurrences(of: ":", with: "-")).bin")
        try RawTestImages.shell("exiftool -m -b -\(tag) '\(file.path)' > '\(out.path)'")
        return try Data(contentsOf: out)
    }

    @Test(
        "The JPEG previews are exactly those exiftool extracts, byte for byte",
        arguments: [
            ("canon_eos_6d.dng", ["IFD0:PreviewImage", "SubIFD1:PreviewImage"]),
            ("DNG.dng", ["SubIFD1:PreviewImage", "SubIFD2:JpgFromRaw"]),
            ("Panasonic.rw2", ["IFD0:JpgFromRaw"]),
        ]
    )
    func jpegPreviewsMatchExiftool(name: String, tags: [String]) throws {
        let url = Corpus.formats.appendingPathComponent(name)
        let bytes = try Data(contentsOf: url)
        let ours = try found(url).previews.filter { $0.encoding == .jpeg }.map { bytes[$0.range] }
        let exiftool = try tags.map { try extract($0, url) }
        #expect(exiftool.allSatisfy { !$0.isEmpty }, "exiftool extracts each of \(tags)")
        #expect(Set(ours) == Set(exiftool), "\(ours.map(\.count)) against exiftool's \(exiftool.map(\.count))")
    }

    /// DNG.dng keeps its IFD0 thumbnail as 8×8 uncompressed RGB; exiftool wraps those
    /// pixels in a TIFF (ThumbnailTIFF), which the vips command decodes.
    @Test func uncompressedThumbnailMatchesExiftool() throws {
        let url = Corpus.formats.appendingPathComponent("DNG.dng")
        let bytes = try Data(contentsOf: url)
        let rgb = try #require(try found(url).previews.first { $0.encoding == .rgb })
        #expect(rgb.size == EmbeddedPreviews.Preview.Size(width: 8, height: 8))
        try extract("ThumbnailTIFF", url).write(to: directory.appendingPathComponent("thumbnail.tif"))
        let reference = try RawTestImages.load(directory.appendingPathComponent("thumbnail.tif").path)
        #expect((reference.width, reference.height, reference.bands) == (8, 8, 3))
        #expect(Array(bytes[rgb.range]) == (try reference.pixels()))
    }

    /// exiftool writes IFD0's Orientation; LibRaw's "Image flip" for each is what the RAW
    /// path turned pictures by until now (`RawOrientation`).
    @Test("The orientation is LibRaw's", arguments: ["canon_eos_6d.dng", "DNG.dng", "Panasonic.rw2"])
    func orientationIsLibRaws(name: String) throws {
        for orientation in 1...8 {
            let copy = directory.appendingPathComponent("o\(orientation)-\(name)")
            try RawTestImages.shell(
                "exiftool -q -m -n -Orientation=\(orientation) -o '\(copy.path)' '\(Corpus.formats.appendingPathComponent(name).path)'"
            )
            let identify = try Tool.run("raw-identify", ["-v", copy.path]).stdout
            let flip = try #require(
                identify.split(separator: "\n").first { $0.hasPrefix("Image flip:") }?.split(separator: " ").last
                    .flatMap { Int($0) }
            )
            #expect(
                try found(copy).orientation == RawOrientation.exifOrientation(flip: flip),
                "\(name), Orientation \(orientation)"
            )
            #expect(try found(copy).orientation == orientation)
        }
    }

    @Test(
        "Formats whose orientation LibRaw reads otherwise are left to LibRaw",
        arguments: ["Nikon.nef", "CanonRaw.cr2", "CanonRaw.cr3", "FujiFilm.raf"]
    )
    func otherFormatsAreNotWalked(name: String) throws {
        let url = Corpus.formats.appendingPathComponent(name)
        let bytes = try Data(contentsOf: url)
        let format = try #require(
            MediaFormat(sniffing: Array(bytes.prefix(MediaFormat.headLength)), fileExtension: url.pathExtension)
        )
        #expect(bytes.withUnsafeBytes { EmbeddedPreviews(head: $0, fileSize: $0.count, format: format) } == nil)
    }
}
