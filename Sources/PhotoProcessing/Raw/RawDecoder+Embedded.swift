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

extension RawDecoder {
    /// How much of a file is read to find its directories, and of a JPEG preview to find
    /// its frame header (after an EXIF segment of up to 64 KiB).
    static let headLength = 256 << 10
    static let jpegHeadLength = 128 << 10

    /// The smallest embedded preview whose longest side reaches `longestSide`, decoded with
    /// shrink-on-load and turned by the RAW's orientation; nil when the RAW has none (or
    /// none that decodes), which leaves the picture to LibRaw. Reads only the file's head
    /// and the previews' bytes, so a 256-pixel thumbnail of a 90 MB DNG reads a few
    /// hundred kilobytes.
    ///
    /// The RAW's full size is checked against `pixelLimit` first, as LibRaw's path does:
    /// an image over the limit is refused whichever picture would be decoded.
    ///
    /// `orSmaller`: when no preview that large decodes, the largest that does (smaller
    /// than asked) — for a format whose previews are its only pictures (X3F).
    static func embeddedPicture(
        in bytes: RawBytes,
        format: MediaFormat,
        path: String,
        longestSide: Int,
        pixelLimit: Int,
        orSmaller: Bool = false
    ) throws(ProcessingError) -> VipsImageRef? {
        guard
            let (found, candidates) = previewCandidates(
                in: bytes,
                format: format,
                longestSide: orSmaller ? 1 : longestSide
            ),
            let size = found.imageSize
        else { return nil }
        try ProcessingError.checkPixels(width: size.width, height: size.height, limit: pixelLimit, path: path)
        let large = candidates.filter { max($0.width, $0.height) >= longestSide }
        let ordered = large + (orSmaller ? candidates.filter { max($0.width, $0.height) < longestSide }.reversed() : [])
        for candidate in ordered {
            let decoded = bytes.withBytes(candidate.preview.range) { data in
                Result { () throws(VipsError) in
                    let preview: RawPreview =
                        switch candidate.preview.encoding {
                        case .jpeg: .jpeg(data)
                        case .rgb: .bitmap(data, width: candidate.width, height: candidate.height, bands: 3)
                        }
                    return try decode(preview, longestSide: longestSide, orientation: found.orientation)
                }
            }
            // A preview that does not decode, or decodes smaller than its header said,
            // is passed over: the next one, or LibRaw, may do better.
            if case .success(let picture) = decoded, orSmaller || max(picture.width, picture.height) >= longestSide {
                Vips.clearError()
                return picture
            }
        }
        Vips.clearError()
        return nil
    }

    /// A preview with its size: from its directory's tags, else (a JPEG found by its
    /// offset alone) from its frame header.
    struct SizedPreview {
        let preview: EmbeddedPreviews.Preview
        let width: Int
        let height: Int
    }

    /// What `EmbeddedPreviews` finds in the RAW, and the previews whose longest side
    /// reaches `longestSide`, smallest first. Nil for a format it does not walk.
    static func previewCandidates(
        in bytes: RawBytes,
        format: MediaFormat,
        longestSide: Int
    ) -> (found: EmbeddedPreviews, candidates: [SizedPreview])? {
        guard let found = EmbeddedPreviews.find(in: bytes, format: format) else { return nil }
        let sized = found.previews.compactMap { preview -> SizedPreview? in
            if let size = preview.size { return SizedPreview(preview: preview, width: size.width, height: size.height) }
            let head =
                preview.range.lowerBound..<min(preview.range.upperBound, preview.range.lowerBound + jpegHeadLength)
            guard let frame = bytes.withBytes(head, { JPEGSegments($0).frame }) ?? nil, frame.isDecodable else {
                return nil
            }
            return SizedPreview(preview: preview, width: frame.width, height: frame.height)
        }
        let candidates = sized.filter { max($0.width, $0.height) >= longestSide }
            .sorted { $0.width * $0.height < $1.width * $1.height }
        return (found, candidates)
    }
}
