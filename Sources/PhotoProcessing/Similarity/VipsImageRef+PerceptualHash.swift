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
    /// The perceptual hash of this picture (8-bit sRGB or grey, upright: the thumbnail's):
    /// grey as ITU-R 601-2 luma with Pillow's integer weights (what imagehash's `convert('L')`
    /// gives), squeezed to 32 × 32 as Pillow's Lanczos does (`PerceptualHash.squeezed`), then
    /// `PerceptualHash.hashes(grey:)`: the 64-bit hash and the detail hash. The pixels are
    /// read where libvips holds them (`vips_image_get_data`: the thumbnail's picture is in
    /// memory already when both kinds are asked; else computed into memory once), not
    /// through another pipeline of libvips operations.
    func perceptualHashes() throws(VipsError) -> (hash: PerceptualHash, detail: DetailHash) {
        let (width, height, bands) = (self.width, self.height, self.bands)
        guard format == VIPS_FORMAT_UCHAR, bands == 1 || bands == 3 else {
            throw VipsError(message: "a picture of \(bands) bands of format \(format.rawValue) has no perceptual hash")
        }
        guard let data = vips_image_get_data(pointer) else { throw VipsError(message: Vips.takeError()) }
        let count = width * height
        let source = UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: count * bands)
        guard bands == 3 else {
            return PerceptualHash.hashes(grey: PerceptualHash.squeezed(grey: source, width: width, height: height))
        }
        let grey = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count {
                let r = UInt32(source[3 * index])
                let g = UInt32(source[3 * index + 1])
                let b = UInt32(source[3 * index + 2])
                buffer[index] = UInt8((r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16)
            }
            initialized = count
        }
        let small = grey.withUnsafeBufferPointer {
            PerceptualHash.squeezed(grey: $0, width: width, height: height)
        }
        return PerceptualHash.hashes(grey: small)
    }
}
