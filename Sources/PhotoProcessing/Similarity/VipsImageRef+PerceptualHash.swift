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
import PhotomillCore

extension VipsImageRef {
    /// The perceptual hash of this picture (8-bit sRGB, upright: the thumbnail's): squeezed
    /// to 32 × 32 by libvips (its thumbnail's reduction, whatever the aspect ratio), then
    /// grey as ITU-R 601-2 luma with Pillow's integer weights (what imagehash's `convert('L')`
    /// gives), then `PerceptualHash.hashes(grey:)`: the 64-bit hash and the detail hash.
    func perceptualHashes() throws(VipsError) -> (hash: PerceptualHash, detail: DetailHash) {
        let side = PerceptualHash.side
        let small = try apply { pm_vips_thumbnail_image_exact($0, $1, Int32(side), Int32(side)) }
        let pixels = try small.pixels()
        let bands = small.bands
        guard pixels.count == side * side * bands, bands == 1 || bands == 3 else {
            throw VipsError(message: "a \(side) × \(side) picture of \(bands) bands came out as \(pixels.count) bytes")
        }
        guard bands == 3 else { return PerceptualHash.hashes(grey: pixels) }
        let grey = (0..<side * side).map { index in
            let r = UInt32(pixels[3 * index])
            let g = UInt32(pixels[3 * index + 1])
            let b = UInt32(pixels[3 * index + 2])
            return UInt8((r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16)
        }
        return PerceptualHash.hashes(grey: grey)
    }
}
