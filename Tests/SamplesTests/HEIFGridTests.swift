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

/// Grid HEICs (`SyntheticHEIFGrid`: tiles by libheif's encoder, boxes by `HEIFGridFile`)
/// as exiftool and heif-info read them, and decoded tile by tile (`TiledHEIF`) against
/// libvips' thumbnail of the same file, which has libheif decode the grid whole.
@Suite(
    .serialized,
    .enabled(
        if: ["exiftool", "vips", "vipsheader", "heif-info"].allSatisfy { Tool.path(of: $0) != nil },
        "needs exiftool, libvips-tools and libheif-examples"
    )
)
final class HEIFGridTests {
    let directory: URL
    init() throws { directory = try temporaryDirectory() }
    deinit { try? FileManager.default.removeItem(at: directory) }

    /// 500×350 in 4×3 tiles of 128: the last column and row reach past the picture.
    static func grid() -> SyntheticHEIFGrid { SyntheticHEIFGrid(width: 500, height: 350, tileSize: 128) }

    private func write(_ grid: SyntheticHEIFGrid, _ name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try grid.write(to: url)
        return url
    }

    /// `PhotoProcessor`'s picture of a still at most `side` on its longest side, turned by
    /// its EXIF orientation as `PhotoProcessor.process` does.
    private func picture(
        _ bytes: [UInt8],
        side: Int,
        path: String = "grid.heic"
    ) -> Result<VipsImageRef, ProcessingError> {
        bytes.withUnsafeBytes { buffer in
            Result { () throws(ProcessingError) in
                let orientation = Self.metadata(buffer, path: path)?.orientation
                return try PhotoProcessor().openStill(buffer, format: .heic, path: path, exifOrientation: orientation)
                    .picture(side)
            }
        }
    }

    private static func metadata(_ buffer: UnsafeRawBufferPointer, path: String) -> PhotoMetadata? {
        try? MetadataReader.read(fileBytes: buffer, format: .heic, path: path)
    }

    private func pixels(_ path: String) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        try Data(contentsOf: URL(fileURLWithPath: path)).withUnsafeBytes { buffer in
            let image = try VipsImageRef.header(of: buffer)
            return (image.width, image.height, try image.pixels())
        }
    }

    @Test("exiftool and heif-info read a grid of 12 tiles showing 500×350")
    func fileIsAGrid() throws {
        var grid = Self.grid()
        grid.exifOrientation = 6
        let url = try write(grid, "grid.heic")
        #expect(
            try Tool.output("exiftool", ["-n", "-s3", "-ImageWidth", "-ImageHeight", "-Orientation", url.path])
                == "500\n350\n6\n"
        )
        let info = try Tool.output("heif-info", [url.path])
        #expect(info.contains("image: 500x350 (id=1), primary"), "heif-info: \(info)")
        let dump = try Tool.output("heif-info", ["-d", url.path])
        #expect(dump.contains("item_type: grid"), "heif-info -d: \(dump)")
        #expect(dump.components(separatedBy: "item_type: hvc1").count - 1 == 12)
        #expect(try Tool.output("vipsheader", ["-f", "width", url.path]) == "500\n")
    }

    /// libvips decodes the grid whole with libheif, which applies `irot` and `imir`; it
    /// drops the EXIF orientation, so the reference of the EXIF case is turned by `vips
    /// rot`. Sides: shrunk in blocks of 4 (64), of 2 (200), not at all (400), not shrunk (600).
    @Test(
        "Tile by tile, the picture is libheif's whole decode as vips thumbnails it",
        arguments: [
            (64, 0, nil, nil, nil), (200, 0, nil, nil, nil), (400, 0, nil, nil, nil), (600, 0, nil, nil, nil),
            (200, 90, nil, nil, nil), (200, 0, UInt8(1), nil, nil), (200, 270, UInt8(0), nil, nil),
            (200, 0, nil, 6, "d90"), (200, 0, nil, 3, "d180"),
        ] as [(Int, Int, UInt8?, Int?, String?)]
    )
    func tileByTileEqualsLibheif(side: Int, rotation: Int, mirror: UInt8?, exif: Int?, turn: String?) throws {
        var grid = Self.grid()
        grid.rotation = rotation
        grid.mirrorAxis = mirror
        grid.exifOrientation = exif
        let url = try write(grid, "grid.heic")
        let reference = directory.appendingPathComponent("reference.png").path
        _ = try Tool.output("vips", ["thumbnail", url.path, reference, "\(side)", "--size", "down"])
        if let turn { _ = try Tool.output("vips", ["rot", reference, reference + ".png", turn]) }
        let expected = try pixels(turn == nil ? reference : reference + ".png")

        let bytes = [UInt8](try Data(contentsOf: url))
        #expect(
            bytes.withUnsafeBytes { HEIFItems($0).flatMap { TiledHEIF($0, exifOrientation: exif ?? 1) } } != nil,
            "decoded tile by tile"
        )
        let ours = try picture(bytes, side: side).get()
        try #require((ours.width, ours.height) == (expected.width, expected.height))
        let difference =
            Double(zip(try ours.pixels(), expected.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) })
            / Double(expected.pixels.count)
        // Measured: 0 where no block is averaged (400, 600), 0.90–1.16 where it is.
        #expect(difference < 1.5, "mean absolute difference \(difference)")
        if turn == "d180" {
            let unturned = try pixels(reference)
            let wrong =
                Double(zip(try ours.pixels(), unturned.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) })
                / Double(unturned.pixels.count)
            #expect(wrong > 10, "the picture left unturned differs by \(wrong)")
        }
    }

    /// vipsthumbnail's rule: the file's thumbnail is used when it is larger than the
    /// picture asked for. Then libvips decodes only the thumbnail, and so does photomill.
    @Test("A thumbnail larger than the picture asked for is used, as vips uses it; otherwise the grid, tile by tile")
    func embeddedThumbnail() throws {
        var grid = Self.grid()
        grid.thumbnailSide = 320
        let url = try write(grid, "thumbnailed.heic")
        let bytes = [UInt8](try Data(contentsOf: url))
        let tiled = try #require(bytes.withUnsafeBytes { HEIFItems($0).flatMap { TiledHEIF($0, exifOrientation: 1) } })
        #expect(tiled.thumbnailSide == 320)
        for side in [256, 400] {
            let reference = directory.appendingPathComponent("reference-\(side).png").path
            _ = try Tool.output("vips", ["thumbnail", url.path, reference, "\(side)", "--size", "down"])
            let expected = try pixels(reference)
            let ours = try picture(bytes, side: side).get()
            try #require((ours.width, ours.height) == (expected.width, expected.height))
            let difference =
                Double(zip(try ours.pixels(), expected.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) })
                / Double(expected.pixels.count)
            // 256 from the thumbnail: the very same decode, 0; 400 from the tiles: 0, nothing averaged.
            #expect(difference < 0.5, "side \(side): mean absolute difference \(difference)")
            let fromTiles = bytes.withUnsafeBytes { buffer in
                Result { () throws(ProcessingError) in
                    try TiledHEIF(HEIFItems(buffer)!, exifOrientation: 1)!.picture(
                        side,
                        path: "t",
                        pixelLimit: 200_000_000
                    )
                }
            }
            #expect(try (fromTiles.get() == nil) == (side == 256))
        }
    }

    // MARK: Damage

    /// `bytes` with the first `from`-byte pattern replaced by `to` (same length).
    private func patched(_ bytes: [UInt8], _ from: [UInt8], _ to: [UInt8]) throws -> [UInt8] {
        let at = try #require(
            (0...(bytes.count - from.count)).first { bytes[$0..<($0 + from.count)].elementsEqual(from) }
        )
        var out = bytes
        out.replaceSubrange(at..<(at + to.count), with: to)
        return out
    }

    /// A 4×3 grid of flat 128-pixel tiles, tile 5 (item 6) coded at 64×64 — its `ispe`
    /// saying so, or (`lying`) claiming 128×128.
    private func gridWithSmallTile(lying: Bool) throws -> [UInt8] {
        func tile(_ side: Int, _ level: UInt8) throws -> [UInt8] {
            try ImageEncoder.heic(
                RGBImage(width: side, height: side, pixels: [UInt8](repeating: level, count: side * side * 3)),
                quality: 80,
                exif: nil
            )
        }
        var tiles = try (0..<12).map { try tile(128, UInt8(20 * $0)) }
        tiles[4] = try tile(64, 100)
        if lying {
            let ispe = Array("ispe".utf8) + [0, 0, 0, 0]
            tiles[4] = try patched(tiles[4], ispe + [0, 0, 0, 64, 0, 0, 0, 64], ispe + [0, 0, 0, 128, 0, 0, 0, 128])
        }
        var fields = ExifFields()
        fields.orientation = 6
        return try HEIFGridFile.assemble(
            tiles: tiles,
            columns: 4,
            rows: 3,
            width: 500,
            height: 350,
            exif: ExifWriter.payload(fields)
        )
    }

    /// Each damaged grid keeps its metadata (EXIF orientation 6, read by photomill) and
    /// its picture fails `corrupt`, naming the file and what is wrong: photomill's own
    /// reading of the grid, libheif's where libheif refuses the file outright.
    @Test("Damaged grids give a classified error naming the file and the tile, and keep their metadata")
    func damagedGrids() throws {
        var grid = Self.grid()
        grid.exifOrientation = 6
        let good = try grid.bytes()
        // dimg from item 1 to items 2…13: tile 3 (item 4) renamed item 99.
        let dimg = Array("dimg".utf8) + [0, 1, 0, 12, 0, 2, 0, 3, 0]
        let missing = try patched(good, dimg + [4], dimg + [99])
        // The grid description (the first bytes of mdat) claims 4 rows of 4 columns.
        let mdat = try #require((0..<(good.count - 4)).first { good[$0..<($0 + 4)].elementsEqual("mdat".utf8) })
        var rows = good
        rows[mdat + 4 + 2] = 3

        let cases: [(String, [UInt8], String)] = [
            ("missing.heic", missing, "HEIF grid is damaged: tile 3 (item 99) is missing"),
            ("rows.heic", rows, "HEIF grid is damaged: its 4×4 grid names 12 tiles"),
            (
                "small.heic", try gridWithSmallTile(lying: false),
                "HEIF grid is damaged: tile 5 (item 6) is 64×64, the others 128×128"
            ),
            (
                "lying.heic", try gridWithSmallTile(lying: true),
                "HEIF grid tile 5 of 12 (item 6) decodes to 64×64, not the grid's 128×128"
            ),
            ("cut.heic", Array(good.prefix(good.count - 2000)), "heic header is damaged: "),
        ]
        for (name, bytes, reason) in cases {
            let metadata = bytes.withUnsafeBytes { Self.metadata($0, path: name) }
            #expect(metadata?.orientation == 6 && metadata?.pixelWidth == 500, "\(name) keeps its metadata")
            let failure = try #require(picture(bytes, side: 200, path: name).failure, "\(name) gave a picture")
            #expect(failure.errorClass == .corrupt)
            #expect(failure.message.hasPrefix("\(name): \(reason)"), "\(failure.message)")
        }
    }

    /// libvips' header gives the grid's `ispe` (500×350), which the caller checks; the
    /// grid description's own size, here patched to 510×380 (still covered by the tiles),
    /// is what the tiles are put together to, and is held to the limit too.
    @Test("The grid description's size is held to the pixel limit, not only ispe's")
    func gridSizeIsHeldToThePixelLimit() throws {
        var bytes = try Self.grid().bytes()
        let mdat = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("mdat".utf8) })
        bytes.replaceSubrange((mdat + 4 + 4)..<(mdat + 4 + 8), with: [0x01, 0xFE, 0x01, 0x7C])  // 510, 380
        var parameters = ProcessingParameters()
        parameters.pixelLimit = 190_000
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ProcessingError) in
                try PhotoProcessor(parameters: parameters).openStill(
                    buffer,
                    format: .heic,
                    path: "big.heic",
                    exifOrientation: nil
                ).picture(200)
            }
        }
        #expect(result.failure == ProcessingError(.tooLarge, "big.heic: 510×380 is 0 megapixels, over the limit of 0"))
        parameters.pixelLimit = 200_000
        let allowed = bytes.withUnsafeBytes { buffer in
            Result { () throws(ProcessingError) in
                try PhotoProcessor(parameters: parameters).openStill(
                    buffer,
                    format: .heic,
                    path: "big.heic",
                    exifOrientation: nil
                ).picture(200)
            }
        }
        #expect(try allowed.get().width == 200)
    }

    @Test("Truncated and bit-flipped grids give a picture or a classified error", .timeLimit(.minutes(2)))
    func hostileGrids() throws {
        let good = try Self.grid().bytes()
        var random = SplitMix64(seed: 0x6772_6964)
        var outcomes: [String: Int] = [:]
        for index in 0..<48 {
            var bytes = good
            if index % 3 == 0 {
                bytes = Array(bytes.prefix(random.int(in: 8...(good.count - 1))))
            } else {
                // Most flips land in the boxes that describe the grid (the first ~800 bytes).
                for _ in 0..<random.int(in: 1...6) {
                    bytes[random.int(in: 0...(index % 3 == 1 ? 800 : good.count - 1))] ^= UInt8(
                        1 << random.int(in: 0...7)
                    )
                }
            }
            let name = "hostile-\(index).heic"
            switch picture(bytes, side: 200, path: name) {
            case .success(let image):
                outcomes["picture", default: 0] += 1
                let count = try image.pixels().count
                #expect(max(image.width, image.height) <= 200 && count == image.width * image.height * image.bands)
            case .failure(let error):
                outcomes[error.errorClass.rawValue, default: 0] += 1
                #expect([.corrupt, .unsupportedFormat, .notAnImage, .tooLarge].contains(error.errorClass), "\(error)")
                #expect(error.message.hasPrefix(name + ": "))
            }
        }
        #expect(outcomes["picture", default: 0] > 0 && outcomes["corrupt", default: 0] > 0, "\(outcomes)")
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
