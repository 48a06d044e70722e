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

/// Assembles a grid HEIC from tiles that libheif encoded as images of their own — what
/// phones write and what heif-enc 1.15 cannot: a `grid` item as the primary image, its
/// tiles hidden `hvc1` items referred to in order (`dimg`), the grid's size, colour and
/// transforms on the grid item, and optionally an EXIF item and a thumbnail. For test
/// fixtures and benchmarks (`Samples.SyntheticHEIFGrid`); the files it writes are checked
/// with exiftool, heif-info and libheif's own decoding.
public enum HEIFGridFile {
    /// Why the tiles cannot be assembled: which tile, and what is wrong with it.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// - Parameters:
    ///   - tiles: one-image HEVC HEIFs of equal size, row after row.
    ///   - width, height: the picture the grid shows (the tiles may reach past it).
    ///   - rotation: `irot`, degrees counter-clockwise (0, 90, 180, 270).
    ///   - mirrorAxis: `imir`'s axis (0 or 1), applied after `irot`, or nil.
    ///   - exif: EXIF for an item describing the grid: a TIFF structure, or one behind
    ///     "Exif\0\0" as a JPEG's APP1 carries it (`ExifWriter.payload`).
    ///   - thumbnail: a one-image HEVC HEIF to store as the grid's thumbnail (`thmb`).
    public static func assemble(
        tiles: [[UInt8]],
        columns: Int,
        rows: Int,
        width: Int,
        height: Int,
        rotation: Int = 0,
        mirrorAxis: UInt8? = nil,
        exif: [UInt8]? = nil,
        thumbnail: [UInt8]? = nil
    ) throws(Failure) -> [UInt8] {
        guard tiles.count == columns * rows, (1...256).contains(columns), (1...256).contains(rows) else {
            throw Failure(message: "\(tiles.count) tiles for a \(columns)×\(rows) grid")
        }
        // Item IDs are written in 16 bits: the grid, the tiles, an EXIF item, a thumbnail.
        guard tiles.count + 3 <= 0xFFFF else { throw Failure(message: "\(tiles.count) tiles need 32-bit item IDs") }
        var writer = HEIFWriter(primary: 1)
        var gridProperties: [(box: [UInt8], essential: Bool)] = []
        for (index, file) in tiles.enumerated() {
            let (properties, data) = try image(file, name: "tile \(index + 1)")
            if index == 0 { gridProperties = properties.filter { ["colr", "pixi"].contains(type(of: $0.box)) } }
            writer.items.append(
                HEIFWriter.Item(
                    id: UInt32(index + 2),
                    type: "hvc1",
                    hidden: true,
                    properties: properties.filter { ["hvcC", "ispe"].contains(type(of: $0.box)) },
                    data: data
                )
            )
        }
        let wide = width > 0xFFFF || height > 0xFFFF
        let size: [UInt8] =
            wide
            ? HEIFWriter.be32(UInt32(width)) + HEIFWriter.be32(UInt32(height))
            : HEIFWriter.be16(UInt16(width)) + HEIFWriter.be16(UInt16(height))
        var grid = HEIFWriter.Item(
            id: 1,
            type: "grid",
            data: [0, wide ? 1 : 0, UInt8(rows - 1), UInt8(columns - 1)] + size
        )
        grid.properties =
            [(HEIFWriter.fullBox("ispe", HEIFWriter.be32(UInt32(width)) + HEIFWriter.be32(UInt32(height))), false)]
            + gridProperties
        if rotation % 360 != 0 { grid.properties.append((HEIFWriter.box("irot", [UInt8(rotation / 90 % 4)]), true)) }
        if let mirrorAxis { grid.properties.append((HEIFWriter.box("imir", [mirrorAxis & 1]), true)) }
        writer.items.insert(grid, at: 0)
        writer.references.append(("dimg", 1, (0..<tiles.count).map { UInt32($0 + 2) }))

        // Metadata and the thumbnail go before the tiles in the file, as cameras put them,
        // so that a file cut short keeps them.
        var next = UInt32(tiles.count + 2)
        if let exif {
            // The item starts with the offset of the TIFF header from the end of that field.
            let offset: UInt32 = exif.starts(with: Array("Exif\0\0".utf8)) ? 6 : 0
            writer.items.insert(HEIFWriter.Item(id: next, type: "Exif", data: HEIFWriter.be32(offset) + exif), at: 1)
            writer.references.append(("cdsc", next, [1]))
            next += 1
        }
        if let thumbnail {
            let (properties, data) = try image(thumbnail, name: "the thumbnail")
            writer.items.insert(HEIFWriter.Item(id: next, type: "hvc1", properties: properties, data: data), at: 1)
            writer.references.append(("thmb", next, [1]))
        }
        return writer.bytes()
    }

    /// The primary image's properties and coded bytes of a one-image HEVC HEIF.
    private static func image(
        _ file: [UInt8],
        name: String
    ) throws(Failure) -> ([(box: [UInt8], essential: Bool)], [UInt8]) {
        let found = file.withUnsafeBytes { bytes -> ([(box: [UInt8], essential: Bool)], [UInt8])? in
            guard let items = HEIFItems(bytes), items.type(of: items.primary) == "hvc1",
                let data = items.data(of: items.primary, limit: 1 << 30)
            else { return nil }
            return (items.properties(of: items.primary).map { (Array(bytes[$0.box.whole]), $0.essential) }, data)
        }
        guard let found else { throw Failure(message: "\(name) is not a HEIF whose primary image is HEVC-coded") }
        return found
    }

    private static func type(of box: [UInt8]) -> String { String(decoding: box[4..<8], as: UTF8.self) }
}
