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

import CVips
import Foundation

/// Encodes pixels with libvips (HEIC with libheif): what the sample generator and the
/// tests make their fixtures with, so that only this module touches libvips (`CVips`).
public enum ImageEncoder {
    /// The EXIF a PNG or HEIF file carries: `payload` as `ExifWriter.payload` makes it, and
    /// the orientation libvips writes into it when saving (it rewrites that tag).
    public struct Exif: Sendable {
        public var payload: [UInt8]
        public var orientation: Int

        public init(payload: [UInt8], orientation: Int) {
            self.payload = payload
            self.orientation = orientation
        }
    }

    /// A baseline JPEG without any metadata (so that EXIF inserted afterwards is the only one).
    public static func jpeg(_ image: RGBImage, quality: Int) throws(VipsError) -> [UInt8] {
        try VipsImageRef.from(image).encode { pm_vips_jpegsave($0, $1, $2, Int32(quality), 1) }
    }

    public static func png(_ image: RGBImage, exif: Exif?) throws(VipsError) -> [UInt8] {
        try VipsImageRef.from(image, exif: exif).encode { pm_vips_pngsave($0, $1, $2) }
    }

    /// HEVC-compressed HEIF, through libheif (`HEIFEncoding`: libvips cannot choose x265's
    /// preset). `exif`'s orientation must be 1 or absent: only libvips' savers write it.
    public static func heic(_ image: RGBImage, quality: Int, exif: Exif?) throws(VipsError) -> [UInt8] {
        precondition((exif?.orientation ?? 1) == 1, "a HEIC's orientation is its irot box, not its EXIF")
        do {
            return try HEIFEncoding.encode(image, quality: quality, exif: exif?.payload)
        } catch {
            throw VipsError(message: "libheif: \(error.message)")
        }
    }

    /// `text` (Pango markup) rendered `width` pixels wide at `dpi`, in `font` (a Pango
    /// font description): one band, 255 where there is ink, as tall as the wrapped text.
    public static func textMask(
        _ markup: String,
        font: String,
        width: Int,
        dpi: Int
    ) throws(VipsError) -> (width: Int, height: Int, ink: [UInt8]) {
        try Vips.ensureInitialised()
        var out: UnsafeMutablePointer<VipsImage>?
        guard pm_vips_text(&out, markup, font, Int32(width), Int32(dpi)) == 0, let out else {
            throw VipsError(message: Vips.takeError())
        }
        let mask = VipsImageRef(out)
        let ink = try mask.pixels()
        guard mask.bands == 1, ink.count == mask.width * mask.height else {
            throw VipsError(message: "libvips rendered text as an unexpected image")
        }
        return (mask.width, mask.height, ink)
    }
}

extension VipsImageRef {
    fileprivate static func from(_ image: RGBImage, exif: ImageEncoder.Exif? = nil) throws(VipsError) -> VipsImageRef {
        let vipsImage = try fromPixels(image.pixels, width: image.width, height: image.height, bands: 3)
        if let exif {
            vipsImage.setBlob("exif-data", exif.payload)
            // libvips rewrites the EXIF Orientation from this field when saving.
            vips_image_set_int(vipsImage.pointer, "orientation", Int32(exif.orientation))
        }
        return vipsImage
    }
}
