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

/// Pixels of a camera RAW for thumbnails and OCR, with LibRaw (libraw_r 0.20).
///
/// A RAW carries two pictures: the sensor's samples, which take a demosaic and colour
/// processing to become one, and the JPEG (rarely a bitmap) the camera rendered for its
/// own screen. The preview costs a JPEG decode with shrink-on-load; the samples cost
/// reading all of them, so the preview is preferred whenever it is large enough.
enum RawDecoder {
    /// Fewer bytes than one per this many sensor pixels cannot be a RAW's image data: it
    /// is under 0.0625 bit a pixel, while lossless RAW codecs spend at least 1 and a
    /// uniformly black lossy DNG (JPEG tiles) about 0.2. exiftool's test RAWs, whose data
    /// is stripped, have 0.008–0.05 — and LibRaw decodes two of them (DNG.dng,
    /// Panasonic.rw2) without an error into a black or noise picture.
    static let pixelsPerByteFloor = 128

    /// An upright 8-bit sRGB picture of the RAW whose longest side is `longestSide`, or
    /// less when the RAW holds nothing that large:
    ///
    /// 1. the smallest embedded preview whose longest side reaches `longestSide`, for the
    ///    formats photomill walks itself (`EmbeddedPreviews`, `embeddedPicture`): only the
    ///    file's head and that preview are read;
    /// 2. else LibRaw's preview (0.20 hands over the largest) when it is at least
    ///    `longestSide` (measured by decoding it, not from the sizes LibRaw reports, which
    ///    can be 0 or wrong), shrunk on load and turned by the RAW's orientation;
    /// 3. else a half-size rendering of the samples (one pixel per 2×2 Bayer cell:
    ///    LibRaw's `half_size`, camera white balance, sRGB), upright, shrunk.
    ///
    /// When the samples cannot be rendered the RAW fails, even if a smaller preview
    /// decodes: a damaged RAW is reported as such rather than hidden behind the
    /// camera's 160-pixel thumbnail (exiftool's FujiFilm.raf has one).
    ///
    /// Shrinking happens here rather than in the caller because a JPEG preview is
    /// cheapest shrunk while it is decoded.
    ///
    /// The RAW's orientation wins over any EXIF inside the preview JPEG: previews are
    /// stored as the sensor saw them, and their own EXIF, when they have one, need not
    /// say so.
    ///
    /// Errors are classified (`RawDecoder+Failures.swift`) and name `path` and LibRaw's
    /// or libvips' reason. Raw sizes over `pixelLimit` are refused before anything is
    /// unpacked: rendering a Bayer sensor takes about 4 bytes of memory a sensor pixel
    /// (the samples, then LibRaw's working image), a linear DNG about 16.
    ///
    /// The picture refers neither to `bytes` nor to LibRaw's memory: both may go once
    /// this returns.
    static func picture(
        of bytes: RawBytes,
        format: MediaFormat,
        path: String,
        longestSide: Int,
        pixelLimit: Int
    ) throws(ProcessingError) -> VipsImageRef {
        guard bytes.count > 0 else { throw ProcessingError(.notAnImage, "\(path): the file is empty") }
        if EmbeddedPreviews.previewsOnly.contains(format) {
            if let picture = try embeddedPicture(
                in: bytes,
                format: format,
                path: path,
                longestSide: longestSide,
                pixelLimit: pixelLimit,
                orSmaller: true
            ) {
                return picture
            }
            let count = EmbeddedPreviews.find(in: bytes, format: format)?.previews.count ?? 0
            if count == 0 {
                throw ProcessingError(
                    .unsupportedFormat,
                    "\(path): \(format.rawValue) file without a preview, and LibRaw \(LibRawCameras.version) cannot decode its image data"
                )
            }
            throw ProcessingError(
                .corrupt,
                "\(path): the \(format.rawValue) file's previews do not decode (\(count) found), and LibRaw \(LibRawCameras.version) cannot decode its image data"
            )
        }
        if let picture = try embeddedPicture(
            in: bytes,
            format: format,
            path: path,
            longestSide: longestSide,
            pixelLimit: pixelLimit
        ) {
            return picture
        }
        let decoded = bytes.withAllBytes { all in
            Result { () throws(ProcessingError) in
                try libRawPicture(of: all, path: path, longestSide: longestSide, pixelLimit: pixelLimit)
            }
        }
        guard let decoded else {
            throw ProcessingError(.unreadable, "\(path): cannot read: the file ended early or could not be read")
        }
        return try decoded.get()
    }

    /// Steps 2 and 3 of `picture`, on the whole file in memory.
    private static func libRawPicture(
        of bytes: UnsafeRawBufferPointer,
        path: String,
        longestSide: Int,
        pixelLimit: Int
    ) throws(ProcessingError) -> VipsImageRef {
        let handle: LibRawHandle
        do {
            handle = try LibRawHandle(for: bytes)
        } catch {
            throw openFailure(error, handle: nil, path: path)
        }
        do {
            try handle.open()
        } catch {
            throw openFailure(error, handle: handle, path: path)
        }
        let raw = handle.rawSize
        try ProcessingError.checkPixels(width: raw.width, height: raw.height, limit: pixelLimit, path: path)

        let orientation = RawOrientation.exifOrientation(flip: handle.flip)
        let previewProblem: String
        switch previewPicture(handle, longestSide: longestSide, orientation: orientation) {
        case .picture(let image) where max(image.width, image.height) >= longestSide:
            Vips.clearError()
            return image
        case .picture(let image):
            previewProblem = "only \(image.width)×\(image.height)"
        case .unusable(let reason, let recycled):
            previewProblem = reason
            if recycled {
                do { try handle.open() } catch { throw dataFailure(error, path: path, previewProblem: previewProblem) }
            }
        }
        let image = try renderedPicture(
            handle,
            byteCount: bytes.count,
            longestSide: longestSide,
            path: path,
            previewProblem: previewProblem
        )
        Vips.clearError()
        return image
    }

    /// The half-size rendering of the samples, shrunk to `longestSide`.
    private static func renderedPicture(
        _ handle: LibRawHandle,
        byteCount: Int,
        longestSide: Int,
        path: String,
        previewProblem: String
    ) throws(ProcessingError) -> VipsImageRef {
        let raw = handle.rawSize
        guard byteCount * pixelsPerByteFloor >= raw.width * raw.height else {
            throw ProcessingError(
                .corrupt,
                "\(path): the RAW holds no usable image data (its \(byteCount) bytes cannot hold a \(raw.width)×\(raw.height) raw image; preview: \(previewProblem))"
            )
        }
        let damage: LibRawHandle.DataError?
        do {
            damage = try handle.unpack()
        } catch {
            throw dataFailure(error, path: path, previewProblem: previewProblem)
        }
        if let damage {
            throw ProcessingError(
                .corrupt,
                "\(path): the RAW's image data is damaged (LibRaw: \(damage.description); preview: \(previewProblem))"
            )
        }
        let processed: ProcessedImage
        do {
            processed = try handle.process()
        } catch {
            throw dataFailure(error, path: path, previewProblem: previewProblem)
        }
        do {
            return try VipsImageRef.copying(
                processed.pixels,
                width: processed.width,
                height: processed.height,
                bands: processed.bands
            )
            .shrunk(toLongestSide: longestSide).flattenedSRGB()
        } catch {
            throw ProcessingError(.corrupt, "\(path): the RAW's rendered pixels could not be shrunk: \(error.message)")
        }
    }
}
