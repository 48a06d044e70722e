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

/// Where camera RAW formats keep the EXIF their camera wrote, and the image size exiftool
/// reports for them (its Composite ImageSize): LibRaw normalises makes and models
/// ("Fujifilm"/"S5Pro"), exiftool and photomill report the file's own.
enum CameraRaw {
    /// RAF: RawImageCroppedSize (tag 0x111 of the directory whose offset is at byte 0x5C:
    /// a count, then tag, length, value; height first), which exiftool reports as ImageSize.
    static func rafCroppedSize(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        let reader = BMFFReader(bytes: bytes)
        guard let start = reader.uint32(at: 0x5C), let count = reader.uint32(at: Int(start)), count < 256 else {
            return nil
        }
        var at = Int(start) + 4
        for _ in 0..<count {
            guard let tag = reader.uint16(at: at), let length = reader.uint16(at: at + 2) else { return nil }
            if tag == 0x111, length >= 4, let height = reader.uint16(at: at + 4), let width = reader.uint16(at: at + 6),
                width > 0, height > 0
            {
                return (Int(width), Int(height))
            }
            at += 4 + Int(length)
        }
        return nil
    }

    /// exiftool's ImageSize for the RAW formats whose own structures photomill reads for
    /// it (RAF; the TIFF-based ones); nil for the others, whose size exiv2 gives.
    static func imageSize(_ bytes: UnsafeRawBufferPointer, format: MediaFormat) -> (width: Int, height: Int)? {
        if format == .raf { return rafCroppedSize(bytes) }
        guard format.isTIFFBased, let tiff = TIFFStructure(header: bytes) else { return nil }
        return tiffImageSize(tiff, format: format)
    }

    /// CR3: the TIFF structures in the Canon `uuid` box inside `moov` — CMT1 holds IFD0,
    /// CMT2 the EXIF IFD, CMT4 the GPS IFD (CMT3 is the maker note). exiv2 0.27's ISO base
    /// media reader does not open CR3 ("corrupted image metadata"), so photomill finds the
    /// boxes (Canon's layout, as exiftool's Canon.pm and LibRaw read it) and exiv2 parses each.
    static func cr3Boxes(_ bytes: UnsafeRawBufferPointer) -> (ifd0: Range<Int>?, exif: Range<Int>?, gps: Range<Int>?) {
        let reader = BMFFReader(bytes: bytes)
        let canon: [UInt8] = [
            0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
        ]
        guard let moov = reader.first("moov", in: 0..<bytes.count),
            let box = reader.boxes(in: moov).first(where: { $0.type == "uuid" && $0.uuid == canon })
        else {
            return (nil, nil, nil)
        }
        let blocks = reader.boxes(in: box.payload)
        func block(_ name: String) -> Range<Int>? { blocks.first { $0.type == name }?.payload }
        return (block("CMT1"), block("CMT2"), block("CMT4"))
    }

    /// exiftool's ImageSize for a TIFF-based RAW:
    /// - RW2: the sensor borders in IFD0 (right − left, bottom − top; tags 0x04–0x07);
    /// - CR2: ExifImageWidth/Height (the EXIF IFD's 0xA002/0xA003);
    /// - others: ImageWidth/ImageLength of the first directory marked as the full-resolution
    ///   image (NewSubfileType 0, or OldSubfileType 1), walking IFD0, its SubIFDs and the
    ///   next IFDs in the order exiftool reads them; else the first directory's.
    static func tiffImageSize(_ tiff: TIFFStructure, format: MediaFormat) -> (width: Int, height: Int)? {
        let directories = ExifDirectories(tiff: tiff)
        if format == .rw2, let ifd0 = directories.ifd0 {
            func value(_ tag: UInt16) -> Int? { ifd0.entries.first(tag).flatMap { tiff.integers($0)?.first } }
            if let top = value(0x04), let left = value(0x05), let bottom = value(0x06), let right = value(0x07),
                right > left, bottom > top
            {
                return (right - left, bottom - top)
            }
        }
        if format == .cr2, let exif = directories.exif,
            let width = exif.entries.first(0xA002).flatMap({ tiff.integers($0)?.first }),
            let height = exif.entries.first(0xA003).flatMap({ tiff.integers($0)?.first }), width > 0, height > 0
        {
            return (width, height)
        }
        var walk = SizeWalk(tiff: tiff)
        var next = tiff.firstDirectoryOffset
        while next > 0, walk.visited.count < 64, !walk.visited.contains(next) {
            next = walk.visit(next, depth: 0)
        }
        return walk.fullResolution ?? walk.first
    }

    private struct SizeWalk {
        let tiff: TIFFStructure
        var visited: Set<Int> = []
        var first: (width: Int, height: Int)?
        var fullResolution: (width: Int, height: Int)?

        init(tiff: TIFFStructure) { self.tiff = tiff }

        /// Reads the directory at `offset` and its SubIFDs; returns the next IFD's offset.
        mutating func visit(_ offset: Int, depth: Int) -> Int {
            visited.insert(offset)
            guard let directory = tiff.directory(at: offset) else { return 0 }
            func value(_ tag: UInt16) -> Int? { directory.first(tag).flatMap { tiff.integers($0)?.first } }
            if let width = value(0x0100), let height = value(0x0101), width > 0, height > 0 {
                if first == nil { first = (width, height) }
                if fullResolution == nil, value(0x00FE) == 0 || value(0x00FF) == 1 { fullResolution = (width, height) }
            }
            if depth < 3, let subIFDs = directory.first(0x014A), let offsets = tiff.integers(subIFDs) {
                for child in offsets.prefix(16) where child > 0 && !visited.contains(child) && visited.count < 64 {
                    _ = visit(child, depth: depth + 1)
                }
            }
            return directory.nextOffset
        }
    }
}
