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

/// Makes thumbnails with `vips_thumbnail_buffer`: shrink-on-load (a JPEG is decoded at
/// 1/2, 1/4 or 1/8 scale), EXIF orientation applied, embedded profile to sRGB, never
/// upscaled, and `fail_on=error` so truncated or damaged data fails instead of yielding
/// a half-grey picture.
enum Thumbnailer {
    static func make(from bytes: UnsafeRawBufferPointer, longestSide: Int, quality: Int) throws(VipsError) -> Thumbnail
    {
        let image = try VipsImageRef.thumbnail(of: bytes, size: longestSide).flattenedSRGB()
        let jpeg = try image.encode { pm_vips_jpegsave($0, $1, $2, Int32(quality), 1) }
        Vips.clearError()
        return Thumbnail(width: image.width, height: image.height, jpeg: jpeg)
    }
}
