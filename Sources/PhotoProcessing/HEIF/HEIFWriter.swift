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

/// Writes a HEIF file of a few items, every item's bytes in `mdat`: how photomill hands
/// libheif one tile of a grid as an image of its own (`HEIFGrid.tileFile`), and how the
/// tests' grid fixtures are assembled (`HEIFGridFile`).
struct HEIFWriter {
    struct Item {
        var id: UInt32
        var type: String
        /// Not to be shown by itself (a grid's tiles).
        var hidden = false
        /// Property boxes, whole, in the order they apply; essential ones a reader must
        /// understand to show the item.
        var properties: [(box: [UInt8], essential: Bool)] = []
        var data: [UInt8] = []
    }

    var primary: UInt32
    var items: [Item] = []
    var references: [(type: String, from: UInt32, to: [UInt32])] = []

    func bytes() -> [UInt8] {
        let ftyp = Self.box("ftyp", Array("heic".utf8) + Self.be32(0) + Array("mif1heic".utf8))
        // iloc's offsets have a fixed width, so meta's length does not depend on them.
        let metaLength = meta(dataStart: 0).count
        let dataStart = ftyp.count + metaLength + 8
        return ftyp + meta(dataStart: dataStart) + Self.box("mdat", items.flatMap(\.data))
    }

    private func meta(dataStart: Int) -> [UInt8] {
        let hdlr = Self.fullBox("hdlr", Self.be32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
        let pitm = Self.fullBox("pitm", Self.be16(UInt16(primary)))
        let iinf = Self.fullBox(
            "iinf",
            Self.be16(UInt16(items.count))
                + items.flatMap { item in
                    Self.fullBox(
                        "infe",
                        version: 2,
                        flags: item.hidden ? 1 : 0,
                        Self.be16(UInt16(item.id)) + Self.be16(0) + Array(item.type.utf8) + [0]
                    )
                }
        )
        var offset = dataStart
        let iloc = Self.fullBox(
            "iloc",
            [0x44, 0x00] + Self.be16(UInt16(items.count))
                + items.flatMap { item in
                    defer { offset += item.data.count }
                    return Self.be16(UInt16(item.id)) + Self.be16(0) + Self.be16(1) + Self.be32(UInt32(offset))
                        + Self.be32(UInt32(item.data.count))
                }
        )
        var ipco: [[UInt8]] = []
        var ipma: [UInt8] = Self.be32(UInt32(items.count))
        for item in items {
            ipma += Self.be16(UInt16(item.id)) + [UInt8(item.properties.count)]
            for property in item.properties {
                let index =
                    ipco.firstIndex(of: property.box)
                    ?? {
                        ipco.append(property.box)
                        return ipco.count - 1
                    }()
                ipma += Self.be16(UInt16(index + 1) | (property.essential ? 0x8000 : 0))
            }
        }
        let iprp = Self.box(
            "iprp",
            Self.box("ipco", ipco.flatMap { $0 }) + Self.fullBox("ipma", version: 0, flags: 1, ipma)
        )
        let iref =
            references.isEmpty
            ? []
            : Self.fullBox(
                "iref",
                references.flatMap { reference in
                    Self.box(
                        reference.type,
                        Self.be16(UInt16(reference.from)) + Self.be16(UInt16(reference.to.count))
                            + reference.to.flatMap { Self.be16(UInt16($0)) }
                    )
                }
            )
        return Self.fullBox("meta", hdlr + pitm + iinf + iref + iprp + iloc)
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(payload.count + 8)) + Array(type.utf8) + payload
    }

    static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + be32(flags).dropFirst() + payload)
    }

    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
