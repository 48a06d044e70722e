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

/// A HEIF whose primary image is a grid of HEVC tiles — how phones store their photos
/// (iPhones: 512×512 tiles) — described well enough to decode it one tile at a time
/// (`HEIFGrid+Picture.swift`).
///
/// libheif 1.15 decodes a grid only whole: every tile pasted into one full-size picture,
/// then converted to RGB, which for 100 megapixels peaks at 600–650 MB. It offers no call
/// for one tile (a tile is a hidden item, not a top-level image), so each tile is given to
/// it as a file of its own: the tile's coded bytes and `hvcC`, with the grid's colour
/// properties, as a one-image HEIF (`tileFile`).
struct HEIFGrid {
    let columns: Int
    let rows: Int
    /// The grid's output size, before `irot`/`imir`.
    let width: Int
    let height: Int
    let tileWidth: Int
    let tileHeight: Int
    /// The tiles' item IDs, row after row.
    let tiles: [UInt32]
    /// The grid's own properties a tile's file carries: how its colours are coded (`colr`)
    /// and its bit depth (`pixi`).
    private let colourBoxes: [(box: [UInt8], essential: Bool)]

    /// How the grid's colours are to be read: its ICC profile (`colr` of type `prof` or
    /// `rICC`), which libvips' loader would attach to the whole picture, else its `nclx`
    /// code points when they need converting (HDR, wide gamut), else sRGB.
    var colour: PictureColour {
        func colr(_ types: [String]) -> [UInt8]? {
            colourBoxes.first { property in
                property.box.count > 12 && property.box[4..<8].elementsEqual("colr".utf8)
                    && types.contains(String(decoding: property.box[8..<12], as: UTF8.self))
            }.map { Array($0.box[12...]) }
        }
        if let profile = colr(["prof", "rICC"]) { return .profile(profile) }
        // nclx: colour_primaries, transfer_characteristics, matrix_coefficients (16 bits
        // each), then the full-range flag.
        guard let nclx = colr(["nclx"]), nclx.count >= 4 else { return .sRGB }
        return PictureColour(
            ColourEncoding(
                primariesCode: Int(nclx[0]) << 8 | Int(nclx[1]),
                transferCode: Int(nclx[2]) << 8 | Int(nclx[3])
            )
        )
    }

    /// Why a grid cannot be decoded: it names the part and what is wrong with it.
    struct Damage: Error {
        let reason: String
    }

    /// More tiles than this are left to libheif: each tile costs a decoder set-up.
    static let tileLimit = 4096

    /// The grid, or nil when the primary image is not a grid of HEVC tiles, or has what
    /// only libheif applies (an alpha plane, a clean aperture, a property it must
    /// understand that photomill does not): libheif then decodes it whole, as before.
    /// Throws when the primary image is such a grid but its description does not hold
    /// together.
    init?(_ items: HEIFItems) throws(Damage) {
        let grid = items.primary
        guard items.type(of: grid) == "grid" else { return nil }
        let handled: Set<String> = ["ispe", "colr", "pixi", "irot", "imir"]
        for (property, essential) in items.properties(of: grid) where !handled.contains(property.type) {
            if essential || property.type == "clap" { return nil }
        }
        for reference in items.references where reference.type == "auxl" && reference.to.contains(grid) {
            if let auxC = items.property("auxC", of: reference.from),
                String(decoding: UnsafeRawBufferPointer(rebasing: items.reader.bytes[auxC]), as: UTF8.self).contains(
                    "alpha"
                )
            {
                return nil
            }
        }
        tiles = items.references("dimg", from: grid)
        guard tiles.allSatisfy({ items.type(of: $0) == "hvc1" || items.type(of: $0) == nil }) else { return nil }

        guard let descriptor = items.data(of: grid, limit: 64), descriptor.count >= 8, descriptor[0] == 0 else {
            throw Damage(reason: "its grid description is missing or of an unknown version")
        }
        let wide = descriptor[1] & 1 == 1
        guard descriptor.count >= (wide ? 12 : 8) else { throw Damage(reason: "its grid description is cut short") }
        rows = Int(descriptor[2]) + 1
        columns = Int(descriptor[3]) + 1
        let field = { (at: Int) -> Int in
            wide
                ? descriptor[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
                : Int(descriptor[at]) << 8 | Int(descriptor[at + 1])
        }
        width = field(4)
        height = field(wide ? 8 : 6)
        guard width > 0, height > 0 else { throw Damage(reason: "its grid is \(width)×\(height)") }
        guard tiles.count == rows * columns else {
            throw Damage(reason: "its \(columns)×\(rows) grid names \(tiles.count) tiles")
        }
        if tiles.count > Self.tileLimit { return nil }

        var size: (width: Int, height: Int)?
        for (index, tile) in tiles.enumerated() {
            guard items.type(of: tile) != nil else {
                throw Damage(reason: "tile \(index + 1) (item \(tile)) is missing")
            }
            guard let hvcC = items.property("hvcC", of: tile), hvcC.count > 18 else {
                throw Damage(reason: "tile \(index + 1) (item \(tile)) has no HEVC configuration")
            }
            guard let ispe = items.property("ispe", of: tile),
                let tileWidth = items.reader.uint32(at: ispe.lowerBound + 4),
                let tileHeight = items.reader.uint32(at: ispe.lowerBound + 8), tileWidth > 0, tileHeight > 0
            else {
                throw Damage(reason: "tile \(index + 1) (item \(tile)) has no size")
            }
            if let size, size != (Int(tileWidth), Int(tileHeight)) {
                throw Damage(
                    reason:
                        "tile \(index + 1) (item \(tile)) is \(tileWidth)×\(tileHeight), the others \(size.width)×\(size.height)"
                )
            }
            size = (Int(tileWidth), Int(tileHeight))
        }
        guard let size else { throw Damage(reason: "its grid has no tiles") }
        tileWidth = size.width
        tileHeight = size.height
        guard tileWidth * columns >= width, tileHeight * rows >= height else {
            throw Damage(
                reason: "its \(columns)×\(rows) tiles of \(tileWidth)×\(tileHeight) do not cover \(width)×\(height)"
            )
        }
        colourBoxes = items.properties(of: grid).filter { ["colr", "pixi"].contains($0.box.type) }.map { property in
            (Array(items.reader.bytes[property.box.whole]), property.essential)
        }
    }

    /// Tile `index` (row after row) as a one-image HEIF that libheif decodes like any
    /// other: the tile's own properties (`hvcC`, `ispe`, any `colr` or `pixi` of its own),
    /// then the grid's colour properties it lacks, and its coded bytes.
    func tileFile(_ index: Int, of items: HEIFItems) throws(Damage) -> [UInt8] {
        let tile = tiles[index]
        guard let data = items.data(of: tile, limit: 64 << 20), !data.isEmpty else {
            throw Damage(reason: "tile \(index + 1) (item \(tile)) has no data inside the file")
        }
        var properties = items.properties(of: tile).map { property in
            (box: Array(items.reader.bytes[property.box.whole]), essential: property.essential)
        }
        let own = Set(items.properties(of: tile).map(\.box.type))
        properties += colourBoxes.filter { !own.contains(String(decoding: $0.box[4..<8], as: UTF8.self)) }
        var writer = HEIFWriter(primary: 1)
        writer.items = [HEIFWriter.Item(id: 1, type: "hvc1", properties: properties, data: data)]
        return writer.bytes()
    }
}
