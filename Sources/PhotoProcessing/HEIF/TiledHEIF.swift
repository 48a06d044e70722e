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

/// A HEIF whose primary image is a grid, with what deciding how to decode it needs.
///
/// Its pictures are made tile by tile (`HEIFGrid.picture`) unless the file's own
/// thumbnail is larger than the picture asked for: libvips then decodes only that
/// thumbnail, as `vipsthumbnail` does (its rule: a thumbnail that would not need
/// enlarging), which is faster still.
struct TiledHEIF {
    let items: HEIFItems
    let grid: Result<HEIFGrid, HEIFGrid.Damage>
    /// How the stored picture is turned for display: `irot`/`imir` when the grid has
    /// them (libheif is not there to apply them), else the EXIF orientation.
    let orientation: Int
    /// The longest side of the primary image's first thumbnail (`thmb`), 0 without one.
    let thumbnailSide: Int

    /// Nil unless the primary image is a grid photomill decodes tile by tile.
    init?(_ items: HEIFItems, exifOrientation: Int) {
        do {
            guard let grid = try HEIFGrid(items) else { return nil }
            self.grid = .success(grid)
        } catch {
            grid = .failure(error)
        }
        self.items = items
        let layout = HEIFLayout(items)
        orientation = layout.rotation != 0 || layout.mirror != nil ? layout.transformOrientation : exifOrientation
        let thumbnail = items.references.first { $0.type == "thmb" && $0.to.contains(items.primary) }
        let ispe = thumbnail.flatMap { items.property("ispe", of: $0.from) }
        thumbnailSide =
            ispe.map { ispe in
                max(
                    Int(items.reader.uint32(at: ispe.lowerBound + 4) ?? 0),
                    Int(items.reader.uint32(at: ispe.lowerBound + 8) ?? 0)
                )
            } ?? 0
    }

    /// The upright picture at most `longestSide`, or nil when libvips should make it
    /// from the file's thumbnail. The grid's own size and its tiles' (which the caller's
    /// check of the header's `ispe` does not cover) are held to `pixelLimit`.
    func picture(_ longestSide: Int, path: String, pixelLimit: Int) throws(ProcessingError) -> VipsImageRef? {
        guard thumbnailSide <= longestSide else { return nil }
        let grid: HEIFGrid
        switch self.grid {
        case .success(let found): grid = found
        case .failure(let damage): throw ProcessingError(.corrupt, "\(path): HEIF grid is damaged: \(damage.reason)")
        }
        try ProcessingError.checkPixels(width: grid.width, height: grid.height, limit: pixelLimit, path: path)
        try ProcessingError.checkPixels(width: grid.tileWidth, height: grid.tileHeight, limit: pixelLimit, path: path)
        let picture = try grid.picture(items, longestSide: longestSide, path: path)
        return try PhotoProcessor.damaged(path) { () throws(VipsError) in try picture.oriented(orientation) }
    }
}
