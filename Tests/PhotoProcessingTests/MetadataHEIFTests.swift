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

/// `HEIFLayout` and the HEIC path of `MetadataReader` on files `heif-enc` makes from a
/// picture whose four quadrants have four grey levels. heif-enc 1.15 writes no `irot` or
/// `imir`, so `HEIFSurgery` adds them; libheif (`heif-convert`) then shows how it displays
/// the file, and libvips' `autorot` how the EXIF orientation photomill derives would: the
/// two must give the same picture. Serialized: Foundation's `readDataToEndOfFile` traps
/// on EINTR when many child processes end at once.
@Suite(
    .serialized,
    .enabled(
        if: Tool.isAvailable("heif-enc") && Tool.isAvailable("heif-convert") && Tool.isAvailable("exiftool"),
        "needs heif-enc, heif-convert (libheif-examples) and exiftool"
    )
)
struct MetadataHEIFTests {
    let directory: URL
    init() throws { directory = try temporaryDirectory() }

    /// Like ../shared/corpus/formats/iphone_7.heic: EXIF orientation 6 and no `irot`.
    @Test func exifOrientationWithoutIrot() throws {
        let jpeg = try quadrants(orientation: 6)
        let heic = directory.appendingPathComponent("exif6.heic").path
        #expect(try Tool.run("heif-enc", ["-q", "90", jpeg, "-o", heic]).status == 0)
        #expect(try Tool.run("heif-info", ["-d", heic]).stdout.contains("irot") == false)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: heic)))

        let layout = try #require(bytes.withUnsafeBytes { HEIFLayout($0) })
        #expect(layout.primarySize == HEIFLayout.PixelSize(width: 64, height: 48))
        #expect(layout.rotation == 0 && layout.mirror == nil && layout.transformOrientation == 1)

        let metadata = try Fixtures.metadata(bytes, format: .heic)
        #expect(metadata.orientation == Int(try ExifTool.value("Orientation", of: heic)))
        #expect(metadata.orientation == 6)
        #expect(metadata.pixelWidth == Int(try ExifTool.value("ImageWidth", of: heic)))
        #expect(metadata.pixelHeight == Int(try ExifTool.value("ImageHeight", of: heic)))
        #expect(metadata.mediaType == .photo)
    }

    /// `irot` and `imir` alone and together, in both orders.
    @Test(arguments: [
        [("irot", UInt8(1))], [("irot", 2)], [("irot", 3)], [("imir", 0)], [("imir", 1)],
        [("irot", 1), ("imir", 0)], [("imir", 0), ("irot", 1)], [("irot", 3), ("imir", 1)],
    ])
    func transformsMatchLibheif(_ properties: [(String, UInt8)]) throws {
        let jpeg = try quadrants(orientation: nil)
        let plain = directory.appendingPathComponent("plain.heic").path
        #expect(try Tool.run("heif-enc", ["-q", "90", jpeg, "-o", plain]).status == 0)
        let bytes = try HEIFSurgery.adding(properties, to: [UInt8](Data(contentsOf: URL(fileURLWithPath: plain))))
        let heic = directory.appendingPathComponent("transformed.heic")
        try Data(bytes).write(to: heic)
        let dump = try Tool.run("heif-info", ["-d", heic.path]).stdout
        for (type, _) in properties { #expect(dump.contains(type), "heif-info sees \(type)") }

        let layout = try #require(bytes.withUnsafeBytes { HEIFLayout($0) })
        let rotation = properties.first { $0.0 == "irot" }.map { Int($0.1) * 90 } ?? 0
        let axis = properties.first { $0.0 == "imir" }?.1
        #expect(layout.rotation == rotation)
        #expect(layout.mirror == axis.map { $0 == 0 ? .topBottom : .leftRight })
        #expect(layout.primarySize == HEIFLayout.PixelSize(width: 64, height: 48))
        let metadata = try Fixtures.metadata(bytes, format: .heic)
        #expect(metadata.pixelWidth == Int(try ExifTool.value("ImageWidth", of: heic.path)))
        #expect(metadata.pixelWidth == 64 && metadata.pixelHeight == 48)

        // libheif's display against libvips turning the original by our orientation.
        let shown = directory.appendingPathComponent("shown.png").path
        #expect(try Tool.run("heif-convert", [heic.path, shown]).status == 0)
        let oriented = try quadrants(orientation: layout.transformOrientation)
        let turned = directory.appendingPathComponent("turned.png").path
        #expect(try Tool.run("vips", ["autorot", oriented, turned]).status == 0)
        #expect(try corners(shown) == corners(turned), "orientation \(layout.transformOrientation)")
    }

    /// Garbage after a valid start never crashes the box reader.
    @Test func truncatedAndFlippedLayoutsNeverCrash() throws {
        let jpeg = try quadrants(orientation: 6)
        let heic = directory.appendingPathComponent("fuzz.heic").path
        #expect(try Tool.run("heif-enc", ["-q", "50", jpeg, "-o", heic]).status == 0)
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: heic)))
        var generator = SplitMix64(seed: 0x6865_6966)
        var complete = 0
        for round in 0..<400 {
            var bytes = original
            if round % 2 == 0 {
                bytes.removeSubrange(generator.int(in: 0...bytes.count)...)
            } else {
                let metaEnd = min(bytes.count, 600)
                for _ in 0..<generator.int(in: 1...8) {
                    bytes[generator.int(in: 0...metaEnd - 1)] = UInt8(truncatingIfNeeded: generator.next())
                }
            }
            if bytes.withUnsafeBytes({ HEIFLayout($0) })?.primarySize != nil { complete += 1 }
        }
        #expect(complete > 0)
    }

    /// A 64×48 JPEG: top-left quadrant grey 0, top-right 80, bottom-left 160, bottom-right
    /// 240 (a PPM written here, converted by `vips`), with an EXIF orientation if given.
    private func quadrants(orientation: Int?) throws -> String {
        var ppm = Array("P6\n64 48\n255\n".utf8)
        for y in 0..<48 {
            for x in 0..<64 {
                let level = UInt8((y < 24 ? 0 : 160) + (x < 32 ? 0 : 80))
                ppm += [level, level, level]
            }
        }
        let name = UUID().uuidString
        let source = directory.appendingPathComponent("\(name).ppm")
        try Data(ppm).write(to: source)
        let jpeg = directory.appendingPathComponent("\(name).jpg").path
        #expect(try Tool.run("vips", ["copy", source.path, jpeg + "[Q=95]"]).status == 0)
        guard let orientation else { return jpeg }
        let tagged = directory.appendingPathComponent("\(name)-\(orientation).jpg").path
        #expect(try Tool.run("exiftool", ["-q", "-n", "-Orientation=\(orientation)", "-o", tagged, jpeg]).status == 0)
        return tagged
    }

    /// The grey level at the centre of each quadrant (read by `vips getpoint`), rounded to
    /// the nearest of the four levels drawn, clockwise from the top-left.
    private func corners(_ path: String) throws -> [Int] {
        let size =
            try Tool.run("vipsheader", ["-f", "width", path]).stdout + " "
            + Tool.run("vipsheader", ["-f", "height", path]).stdout
        let dimensions = size.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard dimensions.count == 2 else { return [] }
        let (w, h) = (dimensions[0], dimensions[1])
        return try [(w / 4, h / 4), (3 * w / 4, h / 4), (3 * w / 4, 3 * h / 4), (w / 4, 3 * h / 4)].map { x, y in
            let output = try Tool.run("vips", ["getpoint", path, "\(x)", "\(y)"]).stdout
            let value = Double(output.split(whereSeparator: \.isWhitespace).first ?? "") ?? -1000
            return Int((value / 80).rounded()) * 80
        } + [w, h]
    }
}

/// Adds transform properties to a HEIF file's primary item, as a camera would have written
/// them: new boxes at the end of `ipco`, their indices (marked essential) at the end of the
/// item's `ipma` entry, the sizes of the boxes around them, and the `iloc` offsets of the
/// data after `meta` moved by what `meta` grew. Written here, apart from `HEIFLayout`.
enum HEIFSurgery {
    struct Failure: Error {}

    static func adding(_ properties: [(String, UInt8)], to file: [UInt8]) throws -> [UInt8] {
        guard let meta = boxes(file, 0..<file.count).first(where: { $0.type == "meta" }) else { throw Failure() }
        let children = boxes(file, (meta.range.lowerBound + 12)..<meta.range.upperBound)
        guard let pitm = children.first(where: { $0.type == "pitm" }) else { throw Failure() }
        let primary = Int(be16(file, pitm.range.lowerBound + 12))
        var body = Array(file[(meta.range.lowerBound + 8)..<(meta.range.lowerBound + 12)])
        for child in children {
            let bytes = Array(file[child.range])
            body += child.type == "iprp" ? try iprp(bytes, properties, primary: primary) : bytes
        }
        var newMeta = box("meta", body)
        let delta = newMeta.count - meta.range.count
        if let iloc = boxes(newMeta, 12..<newMeta.count).first(where: { $0.type == "iloc" }) {
            shift(&newMeta, iloc: iloc.range.lowerBound + 8, by: delta, after: meta.range.upperBound)
        }
        return Array(file[..<meta.range.lowerBound]) + newMeta + Array(file[meta.range.upperBound...])
    }

    private static func iprp(_ bytes: [UInt8], _ properties: [(String, UInt8)], primary: Int) throws -> [UInt8] {
        let children = boxes(bytes, 8..<bytes.count)
        guard let ipco = children.first(where: { $0.type == "ipco" }) else { throw Failure() }
        let existing = boxes(bytes, (ipco.range.lowerBound + 8)..<ipco.range.upperBound).count
        var out: [UInt8] = []
        for child in children {
            switch child.type {
            case "ipco":
                out += box(
                    "ipco",
                    Array(bytes[(child.range.lowerBound + 8)..<child.range.upperBound])
                        + properties.flatMap { box($0.0, [$0.1]) }
                )
            case "ipma":
                out += try ipma(
                    Array(bytes[child.range]),
                    add: (1...properties.count).map { existing + $0 },
                    item: primary
                )
            default:
                out += bytes[child.range]
            }
        }
        return box("iprp", out)
    }

    private static func ipma(_ bytes: [UInt8], add indices: [Int], item: Int) throws -> [UInt8] {
        let version = bytes[8]
        let wide = bytes[11] & 1 == 1
        var out = Array(bytes[8..<16])
        var at = 16
        for _ in 0..<Int(be32(bytes, 12)) {
            let idSize = version < 1 ? 2 : 4
            let id = idSize == 2 ? Int(be16(bytes, at)) : Int(be32(bytes, at))
            let count = Int(bytes[at + idSize])
            let associations = Array(bytes[(at + idSize + 1)..<(at + idSize + 1 + count * (wide ? 2 : 1))])
            out += bytes[at..<(at + idSize)]
            if id == item {
                out.append(UInt8(count + indices.count))
                out +=
                    associations
                    + indices.flatMap { wide ? [UInt8(0x80 | $0 >> 8), UInt8($0 & 0xFF)] : [UInt8(0x80 | $0)] }
            } else {
                out.append(UInt8(count))
                out += associations
            }
            at += idSize + 1 + associations.count
        }
        return box("ipma", out)
    }

    /// Adds `delta` to the file offsets (construction method 0) that point at or past `end`.
    private static func shift(_ bytes: inout [UInt8], iloc start: Int, by delta: Int, after end: Int) {
        let version = bytes[start]
        let offsetSize = Int(bytes[start + 4] >> 4)
        let lengthSize = Int(bytes[start + 4] & 15)
        let baseSize = Int(bytes[start + 5] >> 4)
        let indexSize = version >= 1 ? Int(bytes[start + 5] & 15) : 0
        var at = start + 6
        let count = version < 2 ? Int(be16(bytes, at)) : Int(be32(bytes, at))
        at += version < 2 ? 2 : 4
        for _ in 0..<count {
            at += version < 2 ? 2 : 4
            var method = 0
            if version >= 1 {
                method = Int(bytes[at + 1] & 15)
                at += 2
            }
            at += 2
            let baseAt = at
            let base = read(bytes, at, baseSize)
            at += baseSize
            let extents = Int(be16(bytes, at))
            at += 2
            if method == 0 && baseSize > 0 && base >= end { write(&bytes, baseAt, baseSize, base + delta) }
            for _ in 0..<extents {
                at += indexSize
                let offset = read(bytes, at, offsetSize)
                if method == 0 && baseSize == 0 && offset >= end { write(&bytes, at, offsetSize, offset + delta) }
                at += offsetSize + lengthSize
            }
        }
    }

    private static func boxes(_ bytes: [UInt8], _ range: Range<Int>) -> [(type: String, range: Range<Int>)] {
        var result: [(String, Range<Int>)] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            let size = Int(be32(bytes, at))
            guard size >= 8, at + size <= range.upperBound else { break }
            result.append((String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self), at..<(at + size)))
            at += size
        }
        return result
    }

    private static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = payload.count + 8
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array(type.utf8) + payload
    }

    private static func read(_ bytes: [UInt8], _ at: Int, _ size: Int) -> Int {
        (0..<size).reduce(0) { $0 << 8 | Int(bytes[at + $1]) }
    }

    private static func write(_ bytes: inout [UInt8], _ at: Int, _ size: Int, _ value: Int) {
        for index in 0..<size { bytes[at + index] = UInt8(value >> (8 * (size - 1 - index)) & 0xFF) }
    }

    private static func be16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) }
    private static func be32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }
}
