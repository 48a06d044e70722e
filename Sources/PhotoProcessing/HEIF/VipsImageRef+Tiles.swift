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

extension VipsImageRef {
    /// `images` joined edge to edge, `across` to a row; lazy, so the parts must outlive it
    /// (it holds references to them).
    static func joined(_ images: [VipsImageRef], across: Int) throws(VipsError) -> VipsImageRef {
        var pointers: [UnsafeMutablePointer<VipsImage>?] = images.map(\.pointer)
        var out: UnsafeMutablePointer<VipsImage>?
        let status = pointers.withUnsafeMutableBufferPointer {
            pm_vips_arrayjoin($0.baseAddress, Int32(images.count), &out, Int32(across))
        }
        guard status == 0, let out else { throw VipsError(message: Vips.takeError()) }
        return VipsImageRef(out)
    }

    /// Each `factor` × `factor` block averaged into one pixel.
    func blockShrunk(by factor: Int) throws(VipsError) -> VipsImageRef {
        factor == 1 ? self : try apply { pm_vips_shrink($0, $1, Int32(factor)) }
    }

    func cropped(width: Int, height: Int) throws(VipsError) -> VipsImageRef {
        width == self.width && height == self.height
            ? self : try apply { pm_vips_crop($0, $1, 0, 0, Int32(width), Int32(height)) }
    }

    /// Resized to exactly `width` × `height`, with `vips_thumbnail`'s colour handling.
    func thumbnail(width: Int, height: Int) throws(VipsError) -> VipsImageRef {
        try apply { pm_vips_thumbnail_image_exact($0, $1, Int32(width), Int32(height)) }
    }
}
