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

import PhotomillCore

extension HEIFGrid {
    /// The grid's picture, its longest side `longestSide` (or its own when smaller), as
    /// stored (before `irot`/`imir`), the size and colours `vips_thumbnail` gives the whole
    /// file — without the full picture ever existing at full size.
    ///
    /// One tile at a time: each decoded by libheif alone (`tileFile`), cut to the part
    /// inside the grid, averaged over blocks of `factor` × `factor` pixels; the shrunk
    /// tiles are joined and resized once, as `vips_thumbnail` resizes. `factor` is the
    /// largest power of two that keeps the whole at least the size asked for and divides
    /// the tiles' sides, so that no block straddles two tiles. A 100-megapixel grid
    /// (11552×8672) held for a 4096-pixel picture takes 5776×4336 pixels of shrunk tiles
    /// and the result, instead of libheif's full-size picture and its RGB copy.
    ///
    /// Damage — a tile missing or outside the file, a tile that does not decode or decodes
    /// to another size than its `ispe` says — is an error naming the tile.
    func picture(_ items: HEIFItems, longestSide: Int, path: String) throws(ProcessingError) -> VipsImageRef {
        var factor = 1
        while factor < 64, max(width, height) >= factor * 2 * longestSide,
            tileWidth % (factor * 2) == 0, tileHeight % (factor * 2) == 0
        { factor *= 2 }
        var rowsShrunk: [VipsImageRef] = []
        for row in 0..<rows where row * tileHeight < height {
            var pieces: [VipsImageRef] = []
            for column in 0..<columns where column * tileWidth < width {
                let tile = try tile(row * columns + column, items, path: path)
                pieces.append(
                    try PhotoProcessor.damaged(path) { () throws(VipsError) in
                        try tile.cropped(
                            width: min(tileWidth, width - column * tileWidth),
                            height: min(tileHeight, height - row * tileHeight)
                        )
                        .blockShrunk(by: factor).inMemory()
                    }
                )
            }
            rowsShrunk.append(try Self.joined(pieces, across: true, path: path))
        }
        let shrink = max(1, Double(max(width, height)) / Double(longestSide))
        let size = (width: Int((Double(width) / shrink).rounded()), height: Int((Double(height) / shrink).rounded()))
        let whole = try Self.joined(rowsShrunk, across: false, path: path)
        let (outputWidth, outputHeight) = (max(1, size.width), max(1, size.height))
        return try PhotoProcessor.damaged(path) { () throws(VipsError) in
            switch colour {
            case .encoding(let encoding):
                return try whole.resized(width: outputWidth, height: outputHeight).convertedToSRGB(from: encoding)
            case .profile(let profile):
                // Where libvips' loader would have put it, so that vips_thumbnail's colour
                // handling is the same as for the whole file.
                whole.setBlob("icc-profile-data", profile)
                return try whole.thumbnail(width: outputWidth, height: outputHeight).inMemory()
            case .sRGB:
                return try whole.thumbnail(width: outputWidth, height: outputHeight).inMemory()
            }
        }
    }

    /// `pieces` side by side (`across`: a row, computed into memory so that the tiles can
    /// go) or one above the other (lazily: the rows are already in memory, and a copy of
    /// them would double the largest buffer). arrayjoin spaces them by the largest; the
    /// last, past the grid's edge, may be smaller.
    private static func joined(
        _ pieces: [VipsImageRef],
        across: Bool,
        path: String
    ) throws(ProcessingError) -> VipsImageRef {
        try PhotoProcessor.damaged(path) { () throws(VipsError) in
            let joined = try VipsImageRef.joined(pieces, across: across ? pieces.count : 1)
                .cropped(
                    width: across ? pieces.reduce(0) { $0 + $1.width } : pieces[0].width,
                    height: across ? pieces[0].height : pieces.reduce(0) { $0 + $1.height }
                )
            return across ? try joined.inMemory() : joined
        }
    }

    /// Tile `index` decoded into memory, checked to be the size every tile's `ispe` gives.
    private func tile(_ index: Int, _ items: HEIFItems, path: String) throws(ProcessingError) -> VipsImageRef {
        let name = "HEIF grid tile \(index + 1) of \(tiles.count) (item \(tiles[index]))"
        let tile: VipsImageRef
        do {
            tile = try HEIFTileDecoder.decode(try tileFile(index, of: items))
        } catch let damage as Damage {
            throw ProcessingError(.corrupt, "\(path): HEIF grid is damaged: \(damage.reason)")
        } catch let failure as HEIFDecoding.Failure {
            throw ProcessingError(.corrupt, "\(path): \(name) does not decode: libheif: \(failure.message)")
        } catch {
            throw ProcessingError(.corrupt, "\(path): \(name) does not decode: \(error)")
        }
        guard tile.width == tileWidth, tile.height == tileHeight else {
            throw ProcessingError(
                .corrupt,
                "\(path): \(name) decodes to \(tile.width)×\(tile.height), not the grid's \(tileWidth)×\(tileHeight)"
            )
        }
        return tile
    }
}
