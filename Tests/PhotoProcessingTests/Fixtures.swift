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

@testable import PhotoProcessing

/// Fixtures made by the tests themselves, with independent tools where a tool exists.
enum Fixtures {
    /// A PNG whose header claims `width`×`height` but whose pixel data is a few bytes:
    /// a decompression bomb in miniature. Built by hand (signature, IHDR, IDAT, IEND with
    /// their CRCs) so nothing in the code under test made it.
    static func pngHeaderOnly(width: UInt32, height: UInt32) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func chunk(_ type: String, _ body: [UInt8]) {
            var length = UInt32(body.count).bigEndian
            data.append(Data(bytes: &length, count: 4))
            let typed = Array(type.utf8) + body
            data.append(contentsOf: typed)
            var crc = crc32(typed).bigEndian
            data.append(Data(bytes: &crc, count: 4))
        }
        func be32(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)]
        }
        chunk("IHDR", be32(width) + be32(height) + [8, 0, 0, 0, 0])  // 8-bit greyscale
        chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])  // an empty zlib stream
        chunk("IEND", [])
        return data
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }

    /// Black text on white rendered by the `vips` command (Pango), `width` pixels wide at 300 dpi.
    static func textPage(_ text: String, width: Int = 1600, rotate: String? = nil, in directory: URL) throws -> URL {
        let mask = directory.appendingPathComponent("mask-\(UUID().uuidString).v").path
        let inverted = directory.appendingPathComponent("inv-\(UUID().uuidString).v").path
        let page = directory.appendingPathComponent("page-\(UUID().uuidString).png")
        try check(
            Tool.run("vips", ["text", mask, text, "--width", "\(width)", "--dpi", "300", "--font", "DejaVu Serif 12"])
        )
        try check(Tool.run("vips", ["invert", mask, inverted]))
        let upright =
            rotate == nil ? page.path : directory.appendingPathComponent("upright-\(UUID().uuidString).png").path
        try check(
            Tool.run("vips", ["embed", inverted, upright, "120", "120", "\(width + 240)", "1400", "--extend", "white"])
        )
        if let rotate { try check(Tool.run("vips", ["rot", upright, page.path, rotate])) }
        return page
    }

    private static func check(_ result: ToolOutput) throws {
        guard result.status == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}

/// Character error rate: Levenshtein distance over the reference length.
func characterErrorRate(_ recognised: String, reference: String) -> Double {
    let a = Array(recognised)
    let b = Array(reference)
    var previous = Array(0...b.count)
    for i in 1...max(1, a.count) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...max(1, b.count) where !b.isEmpty {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return Double(a.isEmpty ? b.count : previous[b.count]) / Double(max(1, b.count))
}

extension Fixtures {
    /// `MetadataReader` on bytes in memory, as `PhotoProcessor` calls it.
    static func metadata(
        _ bytes: [UInt8],
        format: MediaFormat,
        path: String = "fixture"
    ) throws(ProcessingError) -> PhotoMetadata {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(ProcessingError) in
                try MetadataReader.read(fileBytes: buffer, format: format, path: path)
            }
        }.get()
    }
}
