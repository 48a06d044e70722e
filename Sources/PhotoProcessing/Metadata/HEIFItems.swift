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

/// The items of a HEIF file's `meta` box (ISO/IEC 23008-12): which is primary, their types
/// (`iinf`), properties (`ipco` and `ipma`), references (`iref`) and where their bytes lie
/// (`iloc`, `idat`). Read with bounds checks only: a damaged box yields fewer items,
/// properties or extents, never a read outside the bytes.
///
/// Reads the bytes in place: valid only while they are.
struct HEIFItems {
    let reader: BMFFReader
    let primary: UInt32
    /// Every item in `iinf`'s order, with its four-character type ("hvc1", "grid", "Exif"…).
    private(set) var items: [(id: UInt32, type: String)] = []
    /// `ipco`'s boxes, which `ipma` associates with items by index.
    private(set) var properties: [BMFFReader.Box] = []
    private var associations: [UInt32: [(index: Int, essential: Bool)]] = [:]
    private(set) var references: [(type: String, from: UInt32, to: [UInt32])] = []
    private var locations: [UInt32: Location] = [:]
    private var idat: Range<Int>?

    private struct Location {
        let method: Int
        let extents: [(offset: UInt64, length: UInt64)]
    }

    /// Nil when `bytes` has no `meta` box with a primary item.
    init?(_ bytes: UnsafeRawBufferPointer) {
        reader = BMFFReader(bytes: bytes)
        guard let meta = reader.first("meta", in: 0..<bytes.count), meta.count > 4 else { return nil }
        let children = reader.boxes(in: (meta.lowerBound + 4)..<meta.upperBound)
        func child(_ type: String) -> Range<Int>? { children.first { $0.type == type }?.payload }
        guard let pitm = child("pitm"), let version = reader.uint8(at: pitm.lowerBound),
            let primary = version == 0
                ? reader.uint16(at: pitm.lowerBound + 4).map(UInt32.init)
                : reader.uint32(at: pitm.lowerBound + 4)
        else { return nil }
        self.primary = primary
        idat = child("idat")
        if let iinf = child("iinf") { readItems(iinf) }
        if let iprp = child("iprp") {
            let boxes = reader.boxes(in: iprp)
            if let ipco = boxes.first(where: { $0.type == "ipco" }) { properties = reader.boxes(in: ipco.payload) }
            for ipma in boxes where ipma.type == "ipma" { readAssociations(ipma.payload) }
        }
        if let iref = child("iref") { readReferences(iref) }
        if let iloc = child("iloc") { readLocations(iloc) }
    }

    func type(of item: UInt32) -> String? { items.first { $0.id == item }?.type }

    /// The item's properties in `ipma`'s order (the order transforms apply in).
    func properties(of item: UInt32) -> [(box: BMFFReader.Box, essential: Bool)] {
        (associations[item] ?? []).compactMap {
            $0.index < properties.count ? (properties[$0.index], $0.essential) : nil
        }
    }

    /// The payload of the item's first property of `type`.
    func property(_ type: String, of item: UInt32) -> Range<Int>? {
        properties(of: item).first { $0.box.type == type }?.box.payload
    }

    /// The items `item` refers to with references of `type` ("dimg": a grid's tiles, in
    /// order), from the first such reference.
    func references(_ type: String, from item: UInt32) -> [UInt32] {
        references.first { $0.type == type && $0.from == item }?.to ?? []
    }

    /// The item's bytes, its extents put together, from the file (construction method 0)
    /// or the `idat` box (1); nil when an extent lies outside them or the total passes
    /// `limit`.
    func data(of item: UInt32, limit: Int = 16 << 20) -> [UInt8]? {
        guard let location = locations[item], location.method <= 1 else { return nil }
        var data: [UInt8] = []
        for extent in location.extents {
            let origin: UInt64 = location.method == 1 ? UInt64(idat?.lowerBound ?? Int.max) : 0
            let (start, overflow) = origin.addingReportingOverflow(extent.offset)
            guard !overflow, extent.length <= UInt64(limit), start <= UInt64(reader.bytes.count),
                extent.length <= UInt64(reader.bytes.count) - start, data.count + Int(extent.length) <= limit
            else { return nil }
            data += reader.bytes[Int(start)..<Int(start + extent.length)]
        }
        return data
    }

    /// `iinf`: an entry count, then `infe` boxes (version 2 and 3 carry the item type).
    private mutating func readItems(_ iinf: Range<Int>) {
        guard let version = reader.uint8(at: iinf.lowerBound) else { return }
        let entries = reader.span(iinf.lowerBound + (version == 0 ? 6 : 8), iinf.upperBound)
        for infe in reader.boxes(in: entries) where infe.type == "infe" {
            let at = infe.payload.lowerBound
            guard let infeVersion = reader.uint8(at: at), infeVersion >= 2 else { continue }
            let id = infeVersion == 2 ? reader.uint16(at: at + 4).map(UInt32.init) : reader.uint32(at: at + 4)
            let typeAt = at + (infeVersion == 2 ? 8 : 10)
            guard let id, typeAt + 4 <= infe.payload.upperBound else { continue }
            items.append(
                (
                    id,
                    String(
                        decoding: UnsafeRawBufferPointer(rebasing: reader.bytes[typeAt..<(typeAt + 4)]),
                        as: UTF8.self
                    )
                )
            )
        }
    }

    /// `ipma`: for each item, indices into `ipco` (1-based; 0 means none), the top bit
    /// marking the property essential.
    private mutating func readAssociations(_ ipma: Range<Int>) {
        guard let version = reader.uint8(at: ipma.lowerBound), let flags = reader.uint32(at: ipma.lowerBound),
            let count = reader.uint32(at: ipma.lowerBound + 4)
        else { return }
        let wideIndex = flags & 1 == 1
        var at = ipma.lowerBound + 8
        for _ in 0..<min(Int(count), 65536) {
            let id: UInt32?
            if version < 1 {
                id = reader.uint16(at: at).map(UInt32.init)
                at += 2
            } else {
                id = reader.uint32(at: at)
                at += 4
            }
            guard let id, let n = reader.uint8(at: at) else { return }
            at += 1
            var list: [(Int, Bool)] = []
            for _ in 0..<Int(n) {
                guard let raw = wideIndex ? reader.uint16(at: at).map(Int.init) : reader.uint8(at: at).map(Int.init)
                else { return }
                at += wideIndex ? 2 : 1
                let index = raw & (wideIndex ? 0x7FFF : 0x7F)
                if index > 0 { list.append((index - 1, raw & (wideIndex ? 0x8000 : 0x80) != 0)) }
            }
            if associations[id] == nil { associations[id] = list }
        }
    }

    /// `iref`: boxes named by the reference type, each a from-ID, a count and to-IDs
    /// (16-bit IDs in version 0, 32-bit after).
    private mutating func readReferences(_ iref: Range<Int>) {
        guard let version = reader.uint8(at: iref.lowerBound) else { return }
        let size = version == 0 ? 2 : 4
        for box in reader.boxes(in: reader.span(iref.lowerBound + 4, iref.upperBound)) {
            var at = box.payload.lowerBound
            func id() -> UInt32? {
                defer { at += size }
                return size == 4 ? reader.uint32(at: at) : reader.uint16(at: at).map(UInt32.init)
            }
            guard let from = id(), let count = reader.uint16(at: at) else { continue }
            at += 2
            var to: [UInt32] = []
            for _ in 0..<count {
                guard at + size <= box.payload.upperBound, let target = id() else { break }
                to.append(target)
            }
            references.append((box.type, from, to))
        }
    }

    /// `iloc`: per item, a construction method (version 1 and 2), a base offset and
    /// extents, each field as wide as the box's header says.
    private mutating func readLocations(_ iloc: Range<Int>) {
        var at = iloc.lowerBound
        guard let version = reader.uint8(at: at), let sizes = reader.uint8(at: at + 4),
            let sizes2 = reader.uint8(at: at + 5)
        else { return }
        let offsetSize = Int(sizes >> 4)
        let lengthSize = Int(sizes & 15)
        let baseSize = Int(sizes2 >> 4)
        let indexSize = version >= 1 ? Int(sizes2 & 15) : 0
        at += 6
        let count: Int
        if version < 2 {
            count = Int(reader.uint16(at: at) ?? 0)
            at += 2
        } else {
            count = Int(reader.uint32(at: at) ?? 0)
            at += 4
        }
        for _ in 0..<min(count, 65536) {
            let id: UInt32?
            if version < 2 {
                id = reader.uint16(at: at).map(UInt32.init)
                at += 2
            } else {
                id = reader.uint32(at: at)
                at += 4
            }
            var method = 0
            if version >= 1 {
                method = Int((reader.uint16(at: at) ?? 0) & 15)
                at += 2
            }
            at += 2  // data_reference_index
            guard let id, let base = reader.unsigned(at: at, length: baseSize),
                let extentCount = reader.uint16(at: at + baseSize)
            else { return }
            at += baseSize + 2
            var extents: [(UInt64, UInt64)] = []
            for _ in 0..<extentCount {
                at += indexSize
                guard let offset = reader.unsigned(at: at, length: offsetSize),
                    let length = reader.unsigned(at: at + offsetSize, length: lengthSize)
                else { return }
                at += offsetSize + lengthSize
                let (start, overflow) = base.addingReportingOverflow(offset)
                guard !overflow else { return }
                extents.append((start, length))
            }
            if locations[id] == nil { locations[id] = Location(method: method, extents: extents) }
        }
    }
}
