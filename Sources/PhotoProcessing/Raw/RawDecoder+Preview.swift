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

extension RawDecoder {
    /// What became of the embedded preview.
    enum PreviewOutcome {
        /// Decoded, shrunk to at most the size asked for, upright, 8-bit sRGB.
        case picture(VipsImageRef)
        /// Why there is no picture. `recycled`: LibRaw's error was fatal, so it forgot
        /// the open file and the handle must be opened again (`LibRawError.isFatal`).
        case unusable(String, recycled: Bool)
    }

    /// The preview LibRaw chose, decoded to at most `longestSide` and turned by the RAW's
    /// `orientation`. The picture's real size is what counts: LibRaw's twidth/theight
    /// come from tags that may be 0 or wrong.
    static func previewPicture(_ handle: LibRawHandle, longestSide: Int, orientation: Int) -> PreviewOutcome {
        let preview: RawPreview
        do {
            preview = try handle.unpackPreview()
        } catch {
            return .unusable("LibRaw: \(error.reason)", recycled: error.isFatal)
        }
        do {
            return .picture(try decode(preview, longestSide: longestSide, orientation: orientation))
        } catch {
            return .unusable("libvips: \(error.message)", recycled: false)
        }
    }

    /// A preview decoded to at most `longestSide` (a JPEG shrunk on load), turned by the
    /// RAW's `orientation`, 8-bit sRGB, in memory: it refers to nothing of `preview`'s.
    static func decode(_ preview: RawPreview, longestSide: Int, orientation: Int) throws(VipsError) -> VipsImageRef {
        let image: VipsImageRef
        switch preview {
        case .jpeg(let data):
            // no_rotate: the JPEG's own EXIF orientation is not the RAW's.
            image = try VipsImageRef.thumbnailUnrotated(of: data, size: longestSide).inMemory()
        case .bitmap(let data, let width, let height, let bands):
            guard width > 0, height > 0, bands == 1 || bands == 3, data.count >= width * height * bands else {
                throw VipsError(message: "a \(width)×\(height) bitmap of \(bands) bands in \(data.count) bytes")
            }
            let pixels = UnsafeRawBufferPointer(rebasing: data.prefix(width * height * bands))
            image = try VipsImageRef.copying(pixels, width: width, height: height, bands: bands)
                .shrunk(toLongestSide: longestSide)
        }
        return try image.oriented(orientation).flattenedSRGB()
    }
}
