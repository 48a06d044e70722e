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

/// The pictures a TIFF-based camera RAW carries beside its sensor data, found by walking
/// its directories with the bounds-checked TIFF reader.
///
/// Cameras and converters store several: Adobe's DNG Converter a 256-pixel thumbnail in
/// IFD0 and a 1024-pixel or full-size preview in a SubIFD (../shared/corpus/formats/DNG.dng
/// has both, canon_eos_6d.dng the first two); Panasonic a 1920-pixel JPEG in IFD0's tag
/// 0x2E. LibRaw 0.20 hands over only the largest, which for a 256-pixel thumbnail of a
/// 45-megapixel RAW means decoding a 45-megapixel JPEG; the smallest one that is large
/// enough costs a fraction of that.
///
/// Only the formats whose orientation rule was checked against LibRaw (`raw-identify`'s
/// "Image flip" on the corpus's files rewritten with each orientation) are walked: DNG and
/// RW2 take IFD0's Orientation, as LibRaw does. LibRaw answers differently for the corpus's
/// NEF (flip 0 whatever IFD0 or the raw SubIFD says) and cannot open its CR2, so those and
/// the formats the corpus lacks (ARW, ORF, PEF, SRW…) keep LibRaw's own preview.
struct EmbeddedPreviews {
    struct Preview: Equatable {
        enum Encoding: Equatable {
            /// A JPEG stream.
            case jpeg
            /// 8-bit RGB, packed rows from the top.
            case rgb
        }

        /// Where the picture's bytes lie in the file.
        let range: Range<Int>
        let encoding: Encoding
        /// The size its directory gives (ImageWidth, ImageLength), if it gives one. The
        /// JPEG's own frame header is what counts; this only spares reading it.
        var size: Size?

        struct Size: Equatable {
            let width: Int
            let height: Int
        }
    }

    /// The formats whose previews photomill finds itself: DNG and RW2 by this walk, CR3
    /// by `CR3Previews`, X3F by `X3FPreviews`.
    static let formats: Set<MediaFormat> = [.dng, .rw2, .cr3, .x3f]

    /// Formats LibRaw 0.20 cannot decode (Debian builds it without Sigma's X3F code):
    /// their previews are their only pictures, used even when smaller than asked.
    static let previewsOnly: Set<MediaFormat> = [.x3f]

    /// Every preview found, in the order of the walk (IFD0, its SubIFDs, the next IFDs).
    private(set) var previews: [Preview] = []
    /// How the stored picture is turned for display: IFD0's Orientation (1…8), 1 when it
    /// has none that is valid.
    private(set) var orientation = 1
    /// The full image's size as exiftool's ImageSize gives it, for the pixel limit.
    private(set) var imageSize: (width: Int, height: Int)?

    /// The previews of `bytes`, a RAW of `format`: DNG and RW2 by walking their TIFF
    /// directories in the file's first `RawDecoder.headLength` bytes, CR3 by
    /// `CR3Previews`, X3F by `X3FPreviews`. Nil for other formats.
    static func find(in bytes: RawBytes, format: MediaFormat) -> EmbeddedPreviews? {
        switch format {
        case .cr3:
            return CR3Previews.find(in: bytes)
        case .x3f:
            return X3FPreviews.find(in: bytes)
        case .dng, .rw2:
            return bytes.withBytes(0..<min(bytes.count, RawDecoder.headLength)) { head in
                EmbeddedPreviews(head: head, fileSize: bytes.count, format: format)
            } ?? nil
        default:
            return nil
        }
    }

    init(previews: [Preview], orientation: Int, imageSize: (width: Int, height: Int)?) {
        self.previews = previews
        self.orientation = orientation
        self.imageSize = imageSize
    }

    /// `head`: the file's first bytes, enough to hold its directories (they come before
    /// the image data in every DNG and RW2 seen); `fileSize`: the whole file's length,
    /// which a preview must lie within. Nil for other formats and non-TIFF bytes.
    init?(head: UnsafeRawBufferPointer, fileSize: Int, format: MediaFormat) {
        guard format == .dng || format == .rw2, let tiff = TIFFStructure(header: head) else { return nil }
        imageSize = CameraRaw.tiffImageSize(tiff, format: format)
        var visited: Set<Int> = []
        var next = tiff.firstDirectoryOffset
        var first = true
        while next > 0, visited.count < 64, !visited.contains(next) {
            guard let directory = tiff.directory(at: next) else { break }
            if first, let value = directory.first(0x0112).flatMap({ tiff.integers($0)?.first }), (1...8).contains(value)
            {
                orientation = value
            }
            if first, format == .rw2, let jpeg = directory.first(0x002E).flatMap(tiff.valueRange(of:)) {
                previews.append(Preview(range: jpeg, encoding: .jpeg))
            }
            first = false
            visit(next, in: tiff, depth: 0, visited: &visited)
            next = directory.nextOffset
        }
        previews.removeAll { $0.range.isEmpty || $0.range.upperBound > fileSize }
    }

    /// Adds the directory's preview, if it holds one, then its SubIFDs'.
    private mutating func visit(_ offset: Int, in tiff: TIFFStructure, depth: Int, visited: inout Set<Int>) {
        visited.insert(offset)
        guard let directory = tiff.directory(at: offset) else { return }
        if let preview = Self.preview(in: directory, of: tiff) { previews.append(preview) }
        guard depth < 2, let subIFDs = directory.first(0x014A), let offsets = tiff.integers(subIFDs) else { return }
        for child in offsets.prefix(16) where child > 0 && !visited.contains(child) && visited.count < 64 {
            visit(child, in: tiff, depth: depth + 1, visited: &visited)
        }
    }

    /// A directory's picture when it is a preview: a JPEG (in one strip, or at
    /// JPEGInterchangeFormat) or one strip of 8-bit RGB. Directories of sensor data (CFA or
    /// LinearRaw) and those whose NewSubfileType marks a full-resolution image or a mask
    /// hold none.
    private static func preview(in directory: TIFFDirectoryEntries, of tiff: TIFFStructure) -> Preview? {
        func values(_ tag: UInt16) -> [Int]? { directory.first(tag).flatMap(tiff.integers) }
        func value(_ tag: UInt16) -> Int? { values(tag)?.first }
        if let kind = value(0x00FE), kind & 1 == 0 || kind & 4 != 0 { return nil }
        var size: Preview.Size?
        if let width = value(0x0100), let height = value(0x0101), (1...65535).contains(width),
            (1...65535).contains(height)
        {
            size = Preview.Size(width: width, height: height)
        }
        let photometric = value(0x0106)
        if photometric == 32803 || photometric == 34892 { return nil }
        func span(_ start: Int, _ length: Int) -> Range<Int>? {
            start >= 0 && length > 0 && start <= Int(UInt32.max) && length <= Int(UInt32.max)
                ? start..<(start + length) : nil
        }
        if let start = value(0x0201), let length = value(0x0202) {
            return span(start, length).map { Preview(range: $0, encoding: .jpeg, size: size) }
        }
        guard let offsets = values(0x0111), let counts = values(0x0117), offsets.count == 1, counts.count == 1,
            let range = span(offsets[0], counts[0])
        else { return nil }
        switch value(0x0103) ?? 1 {
        case 6, 7:
            return Preview(range: range, encoding: .jpeg, size: size)
        case 1:
            guard photometric == 2, value(0x0115) == 3, values(0x0102) == [8, 8, 8], value(0x011C) ?? 1 == 1,
                let size, size.width * size.height * 3 == range.count
            else { return nil }
            return Preview(range: range, encoding: .rgb, size: size)
        default:
            return nil
        }
    }
}
