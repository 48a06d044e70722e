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

/// The previews of a Sigma/Foveon X3F, found from its section directory as Foveon's X3F
/// format description (X3F_Format.pdf) and exiftool (SigmaRaw.pm) read them. LibRaw 0.20
/// as Debian builds it cannot open X3F at all, so these are its only pictures.
///
/// The last four bytes of the file give the directory's offset: "SECd", a version, the
/// number of entries, then 12 bytes an entry (offset, length, type). An image section
/// (type `IMAG` or `IMA2`) starts "SECi", version, image type (2: a processed picture for
/// display), data format (18: JPEG; 3: 8-bit RGB rows), columns, rows, row size — 28 bytes
/// — then the data. Every camera since the SD14 stores a full-size JPEG (the JpgFromRaw,
/// with the camera's EXIF) and a small one.
///
/// Orientation: the EXIF Orientation inside a JPEG preview, which is what exiftool reports
/// for the file; else the header's Rotation (degrees clockwise: 90 → 6, 180 → 3, 270 → 8).
enum X3FPreviews {
    /// Directory entries looked at, at most.
    static let entryLimit = 256

    static func find(in bytes: RawBytes) -> EmbeddedPreviews? {
        guard bytes.count > 40,
            let header = bytes.withBytes(0..<min(bytes.count, 64), { Array($0) }),
            header.starts(with: Array("FOVb".utf8)),
            let pointer = bytes.withBytes((bytes.count - 4)..<bytes.count, { littleEndian($0, 0) }) ?? nil,
            pointer >= 0, pointer < bytes.count - 12,
            let directory = bytes.withBytes(pointer..<min(bytes.count, pointer + 12 + 12 * entryLimit), { Array($0) }),
            directory.starts(with: Array("SECd".utf8))
        else { return nil }
        let version = header.withUnsafeBytes { littleEndian($0, 4) } ?? 0
        let fields = version >> 16 >= 4 ? (width: 40, height: 44, rotation: 48) : (width: 28, height: 32, rotation: 36)
        func headerValue(_ at: Int) -> Int? { header.withUnsafeBytes { littleEndian($0, at) } }
        var imageSize: (width: Int, height: Int)?
        if let width = headerValue(fields.width), let height = headerValue(fields.height), width > 0, height > 0 {
            imageSize = (width, height)
        }
        var orientation =
            switch headerValue(fields.rotation) {
            case 90: 6
            case 180: 3
            case 270: 8
            default: 1
            }
        var exifOrientation: Int?
        var previews: [EmbeddedPreviews.Preview] = []
        let count = min(directory.withUnsafeBytes { littleEndian($0, 8) } ?? 0, entryLimit)
        for index in 0..<count {
            let entry = 12 + 12 * index
            guard entry + 12 <= directory.count,
                let offset = directory.withUnsafeBytes({ littleEndian($0, entry) }),
                let length = directory.withUnsafeBytes({ littleEndian($0, entry + 4) })
            else { break }
            let type = String(decoding: directory[(entry + 8)..<(entry + 12)], as: UTF8.self)
            guard type == "IMAG" || type == "IMA2", length > 28, offset <= bytes.count - length,
                let section = bytes.withBytes(offset..<(offset + 28), { Array($0) }),
                section.starts(with: Array("SECi".utf8))
            else { continue }
            let value = { (at: Int) in section.withUnsafeBytes { littleEndian($0, at) } ?? 0 }
            let (imageType, format, columns, rows, rowBytes) = (value(8), value(12), value(16), value(20), value(24))
            guard imageType == 2, (1...65535).contains(columns), (1...65535).contains(rows) else { continue }
            let data = (offset + 28)..<(offset + length)
            let size = EmbeddedPreviews.Preview.Size(width: columns, height: rows)
            switch format {
            case 18:
                previews.append(EmbeddedPreviews.Preview(range: data, encoding: .jpeg, size: size))
                if exifOrientation == nil {
                    exifOrientation =
                        bytes.withBytes(data.lowerBound..<min(data.upperBound, data.lowerBound + (64 << 10))) {
                            Self.exifOrientation(ofJPEG: $0)
                        } ?? nil
                }
            case 3 where rowBytes == columns * 3 && data.count >= rows * rowBytes:
                previews.append(
                    EmbeddedPreviews.Preview(
                        range: data.lowerBound..<(data.lowerBound + rows * rowBytes),
                        encoding: .rgb,
                        size: size
                    )
                )
            default:
                continue
            }
        }
        if let exifOrientation { orientation = exifOrientation }
        return EmbeddedPreviews(previews: previews, orientation: orientation, imageSize: imageSize)
    }

    /// IFD0's Orientation in a JPEG's EXIF (1…8), or nil.
    static func exifOrientation(ofJPEG bytes: UnsafeRawBufferPointer) -> Int? {
        guard let exif = JPEGSegments(bytes).exif,
            let tiff = TIFFStructure(header: UnsafeRawBufferPointer(rebasing: bytes[exif])),
            let ifd0 = tiff.directory(at: tiff.firstDirectoryOffset),
            let value = ifd0.first(0x0112).flatMap({ tiff.integers($0)?.first }), (1...8).contains(value)
        else { return nil }
        return value
    }

    private static func littleEndian(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> Int? {
        guard at >= 0, at + 4 <= bytes.count else { return nil }
        return (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
    }
}
