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

/// libvips 8.14 hands the EXIF to libpng in the info that libpng writes both before and
/// after the image data, so the file gets two eXIf chunks, one after IDAT. The PNG
/// specification allows one, before IDAT; exiftool warns about both mistakes, and
/// samples should look like files from careful writers.
enum PNGChunks {
    /// `png` with only its first eXIf chunk, placed in front of the first IDAT. Chunks
    /// are moved whole, so their CRCs stay valid; anything unparseable is returned as is.
    static func withOneExifBeforeImageData(_ png: [UInt8]) -> [UInt8] {
        let signature = 8
        guard png.count > signature else { return png }
        var chunks: [(type: String, range: Range<Int>)] = []
        var offset = signature
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let end = offset + 12 + length
            guard end <= png.count else { return png }
            chunks.append((String(decoding: png[offset + 4..<offset + 8], as: UTF8.self), offset..<end))
            offset = end
        }
        guard offset == png.count, let exif = chunks.first(where: { $0.type == "eXIf" }),
            chunks.contains(where: { $0.type == "IDAT" })
        else { return png }

        var out = Array(png[0..<signature])
        out.reserveCapacity(png.count)
        var placed = false
        for chunk in chunks where chunk.type != "eXIf" {
            if chunk.type == "IDAT", !placed {
                out.append(contentsOf: png[exif.range])
                placed = true
            }
            out.append(contentsOf: png[chunk.range])
        }
        return out
    }
}
