import PhotomillCore

extension HEIFGrid {
    /// The grid's picture, its longest side `longestSide` (or its own when smaller), as
    /// stored (before `irot`/`imir`), the size and colours `vips_thumbnail` gives the whole
    /// file — without the full picture ever existing at full size.
    ///
    /// One row of tiles at a time: each tile decoded by libheif alone (`tileFile`), the row
    /// joined, cut to the grid's width (and the last row to its height), and averaged over
    /// blocks of `factor` × `factor` pixels; the shrunk rows are then joined and resized
    /// once, as `vips_thumbnail` resizes. `factor` is the largest power of two that keeps
    /// the rows at least the size asked for and divides the tile height, so that blocks
    /// never straddle two rows. A 100-megapixel grid (11552×8672) held for a 4096-pixel
    /// picture takes 5776×4336 pixels in rows, a row of tiles and the result, instead of
    /// libheif's full-size picture and its RGB copy.
    ///
    /// Damage — a tile missing or outside the file, a tile that does not decode or decodes
    /// to another size than its `ispe` says — is an error naming the tile.
    func picture(_ items: HEIFItems, longestSide: Int, path: String) throws(ProcessingError) -> VipsImageRef {
        var factor = 1
        while factor < 64, max(width, height) >= factor * 2 * longestSide, tileHeight % (factor * 2) == 0 { factor *= 2 }
        var rowsShrunk: [VipsImageRef] = []
        for row in 0..<rows where row * tileHeight < height {
            var pieces: [VipsImageRef] = []
            for column in 0..<columns where column * tileWidth < width {
                pieces.append(try tile(row * columns + column, items, path: path))
            }
            let strip = try PhotoProcessor.damaged(path) { () throws(VipsError) in
                try VipsImageRef.joined(pieces, across: pieces.count)
                    .cropped(width: width, height: min(tileHeight, height - row * tileHeight))
                    .blockShrunk(by: factor).inMemory()
            }
            rowsShrunk.append(strip)
        }
        let shrink = max(1, Double(max(width, height)) / Double(longestSide))
        let size = (width: Int((Double(width) / shrink).rounded()), height: Int((Double(height) / shrink).rounded()))
        return try PhotoProcessor.damaged(path) { () throws(VipsError) in
            // arrayjoin spaces rows by the tallest; the last may be shorter.
            try VipsImageRef.joined(rowsShrunk, across: 1)
                .cropped(width: rowsShrunk[0].width, height: rowsShrunk.reduce(0) { $0 + $1.height })
                .thumbnail(width: max(1, size.width), height: max(1, size.height)).inMemory()
        }
    }

    /// Tile `index` decoded into memory. libvips checks that it decodes to the size its
    /// `ispe` gives, which `HEIFGrid` checked is every tile's.
    private func tile(_ index: Int, _ items: HEIFItems, path: String) throws(ProcessingError) -> VipsImageRef {
        let file: [UInt8]
        do {
            file = try tileFile(index, of: items)
        } catch {
            throw ProcessingError(.corrupt, "\(path): HEIF grid is damaged: \(error.reason)")
        }
        let decoded = file.withUnsafeBytes { bytes in
            Result { () throws(VipsError) in try VipsImageRef.header(of: bytes).inMemory() }
        }
        switch decoded {
        case .success(let tile): return tile
        case .failure(let error):
            throw ProcessingError(.corrupt, "\(path): HEIF grid tile \(index + 1) of \(tiles.count) (item \(tiles[index])) does not decode: \(error.message)")
        }
    }
}
