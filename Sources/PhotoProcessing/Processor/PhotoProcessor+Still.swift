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

extension PhotoProcessor {
    /// A still that libvips decodes: JPEG, PNG, GIF, TIFF, WebP, BMP, HEIC/HEIF/AVIF, JPEG XL.
    ///
    /// Pictures only (the metadata is read apart, `MetadataReader`), from `StillPictures`:
    /// `exifOrientation`, which the caller read with the metadata, turns a HEIF without
    /// `irot`/`imir` (libheif applies only those and libvips then drops the EXIF one).
    func openStill(
        _ bytes: UnsafeRawBufferPointer,
        format: MediaFormat,
        path: String,
        exifOrientation: Int?
    ) throws(ProcessingError) -> PictureSource {
        let header: VipsImageRef
        do {
            header = try VipsImageRef.header(of: bytes)
        } catch {
            let failure =
                if error.message.contains("is not a known") || error.message.contains("not a known file format") {
                    ProcessingError(
                        .unsupportedFormat,
                        "\(path): \(format.rawValue) image that this libvips cannot decode: \(error.message)"
                    )
                } else {
                    ProcessingError(.corrupt, "\(path): \(format.rawValue) header is damaged: \(error.message)")
                }
            throw failure
        }

        let pictures = StillPictures(
            bytes,
            format: format,
            header: header,
            exifOrientation: exifOrientation ?? 1,
            path: path,
            pixelLimit: parameters.pixelLimit
        )
        return PictureSource(picture: { side throws(ProcessingError) in try pictures.picture(side) })
    }
}
