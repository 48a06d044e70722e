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
import PhotoProcessing
import PhotomillCore

/// A grid HEIC as phones write them (a `grid` item of HEVC tiles), which heif-enc 1.15
/// cannot write: the tiles encoded by libheif's x265 encoder (through libvips, as
/// `ImageEncoder.heic`), the boxes put together by `HEIFGridFile`.
///
/// The picture is a `SampleScene` (a photo-like scene with a coloured marker in each
/// corner, so that a turned picture shows), stored as the grid's transforms and EXIF say
/// it must be turned for display — like a phone held sideways.
public struct SyntheticHEIFGrid: Sendable {
    /// The grid's picture as stored; the tiles cover it and reach past it by up to a tile.
    public var width: Int
    public var height: Int
    public var tileSize: Int
    /// `irot`: degrees counter-clockwise to display the picture (0, 90, 180, 270).
    public var rotation = 0
    /// `imir`'s axis (0: top and bottom swap, 1: left and right), after `irot`; nil for none.
    public var mirrorAxis: UInt8?
    /// An EXIF item with this Orientation, or nil for none.
    public var exifOrientation: Int?
    /// A thumbnail image of this longest side (`thmb`), or nil for none.
    public var thumbnailSide: Int?
    public var scene: UInt64 = 13
    public var quality = 85

    public init(width: Int, height: Int, tileSize: Int) {
        self.width = width
        self.height = height
        self.tileSize = tileSize
    }

    public var columns: Int { (width + tileSize - 1) / tileSize }
    public var rows: Int { (height + tileSize - 1) / tileSize }

    /// The stored picture (before any transform).
    public var picture: RGBImage { SampleScene(seed: scene).render(width: width, height: height) }

    public func write(to url: URL) throws(SampleError) {
        let file = try bytes(name: url.path)
        do {
            try Data(file).write(to: url)
        } catch {
            throw SampleError(file: url.path, message: "cannot write: \(error.fileSystemReason)")
        }
    }

    /// The file's bytes; `name` is what errors call it.
    public func bytes(name: String = "grid.heic") throws(SampleError) -> [UInt8] {
        guard width > 0, height > 0, (16...4096).contains(tileSize), columns <= 256, rows <= 256 else {
            throw SampleError(
                file: name,
                message: "\(width)×\(height) in tiles of \(tileSize) is not a grid a HEIF can hold"
            )
        }
        let picture = picture
        do {
            var tiles: [[UInt8]] = []
            for row in 0..<rows {
                for column in 0..<columns {
                    tiles.append(
                        try ImageEncoder.heic(tile(of: picture, column: column, row: row), quality: quality, exif: nil)
                    )
                }
            }
            let exif = exifOrientation.map { orientation in
                var fields = ExifFields()
                fields.orientation = orientation
                return ExifWriter.payload(fields)
            }
            var thumbnail: [UInt8]?
            if let side = thumbnailSide {
                let scale = Double(side) / Double(max(width, height))
                thumbnail = try ImageEncoder.heic(
                    SampleScene(seed: scene).render(
                        width: max(1, Int(Double(width) * scale)),
                        height: max(1, Int(Double(height) * scale))
                    ),
                    quality: quality,
                    exif: nil
                )
            }
            return try HEIFGridFile.assemble(
                tiles: tiles,
                columns: columns,
                rows: rows,
                width: width,
                height: height,
                rotation: rotation,
                mirrorAxis: mirrorAxis,
                exif: exif,
                thumbnail: thumbnail
            )
        } catch let error as VipsError {
            throw SampleError(file: name, message: "cannot encode a tile: \(error.message)")
        } catch {
            throw SampleError(file: name, message: "\(error)")
        }
    }

    /// One tile of the picture; past the picture's right or bottom edge the last column
    /// or row is repeated, as encoders pad.
    private func tile(of picture: RGBImage, column: Int, row: Int) -> RGBImage {
        var pixels = [UInt8]()
        pixels.reserveCapacity(tileSize * tileSize * 3)
        for y in 0..<tileSize {
            let sourceY = min(row * tileSize + y, height - 1)
            for x in 0..<tileSize {
                let index = (sourceY * width + min(column * tileSize + x, width - 1)) * 3
                pixels += picture.pixels[index..<(index + 3)]
            }
        }
        return RGBImage(width: tileSize, height: tileSize, pixels: pixels)
    }
}
