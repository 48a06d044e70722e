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

/// How a decoded picture's colours are to be read, as its file says.
enum PictureColour {
    /// sRGB (or nothing said): shown as it is.
    case sRGB
    /// An ICC profile, which libvips applies (`vips_thumbnail_image`).
    case profile([UInt8])
    /// H.273 code points that need converting (`ColourConverter`): HDR or wide gamut.
    case encoding(ColourEncoding)

    /// `.encoding` when `encoding` needs converting, else `.sRGB`.
    init(_ encoding: ColourEncoding?) {
        if let encoding, encoding.needsConversion { self = .encoding(encoding) } else { self = .sRGB }
    }
}

extension VipsImageRef {
    /// Wraps packed pixels of `format` that live in C memory (LibRaw's, libheif's),
    /// copying them once; `fromPixels` would want them in a Swift array first, a second
    /// copy of the largest buffer a decode makes.
    static func copying(
        _ pixels: UnsafeRawBufferPointer,
        width: Int,
        height: Int,
        bands: Int,
        format: VipsBandFormat = VIPS_FORMAT_UCHAR
    ) throws(VipsError) -> VipsImageRef {
        try Vips.ensureInitialised()
        guard
            let image = vips_image_new_from_memory_copy(
                pixels.baseAddress,
                pixels.count,
                Int32(width),
                Int32(height),
                Int32(bands),
                format
            )
        else {
            throw VipsError(message: Vips.takeError())
        }
        return VipsImageRef(image)
    }

    /// Samples of `bits` significant bits (9…15, stored in 16) spread over the full 16
    /// bits, as libvips' `rgb16` means them: the most significant bits shifted up, the
    /// top ones repeated below (1023 → 65535). libvips 8.14's HEIF loader leaves 10-bit
    /// samples unscaled in a 16-bit image, which every later step reads as nearly black.
    func widened(fromBits bits: Int) throws(VipsError) -> VipsImageRef {
        guard (9...15).contains(bits) else { return self }
        let scale = 65535 / Double((1 << bits) - 1)
        return try apply { pm_vips_linear1($0, $1, scale, 0) }.apply { pm_vips_cast_ushort($0, $1) }
    }

    /// Shrunk to at most `size` on its longest side, never enlarged, without any colour
    /// handling (the picture stays in its file's coding).
    func resized(toLongestSide size: Int) throws(VipsError) -> VipsImageRef {
        let scale = Double(size) / Double(max(width, height))
        guard scale < 1 else { return self }
        return try apply { pm_vips_resize($0, $1, scale, scale) }
    }

    /// Resized to exactly `width` × `height`, without colour handling.
    func resized(width: Int, height: Int) throws(VipsError) -> VipsImageRef {
        guard width != self.width || height != self.height else { return self }
        return try apply {
            pm_vips_resize($0, $1, Double(width) / Double(self.width), Double(height) / Double(self.height))
        }
    }

    /// 8-bit sRGB from this picture coded as `encoding` (`ColourConverter`), computed into
    /// memory. Meant for pictures already shrunk: each pixel is converted in Swift.
    func convertedToSRGB(from encoding: ColourEncoding) throws(VipsError) -> VipsImageRef {
        var image = self
        if image.bands > 4 { image = try image.apply { pm_vips_extract_bands($0, $1, 0, 4) } }
        switch image.format {
        case VIPS_FORMAT_USHORT: break
        case VIPS_FORMAT_UCHAR:
            image = try image.apply { pm_vips_linear1($0, $1, 257, 0) }.apply { pm_vips_cast_ushort($0, $1) }
        default: image = try image.apply { pm_vips_cast_ushort($0, $1) }
        }
        let samples = try image.pixels()
        let bands = image.bands
        let converter = ColourConverter(encoding)
        let rgb = samples.withUnsafeBytes { raw in converter.convert(raw.bindMemory(to: UInt16.self), bands: bands) }
        return try VipsImageRef.fromPixels(rgb, width: image.width, height: image.height, bands: 3)
    }

    /// This picture, its colours as `colour` says, shrunk to at most `size`: 8-bit sRGB
    /// for an encoding photomill converts, else what `vips_thumbnail_image` makes of it
    /// (a profile applied, 16 bits brought to 8 by `flattenedSRGB` later).
    func shrunk(toLongestSide size: Int, colour: PictureColour) throws(VipsError) -> VipsImageRef {
        switch colour {
        case .encoding(let encoding):
            return try resized(toLongestSide: size).convertedToSRGB(from: encoding)
        case .profile(let profile):
            setBlob("icc-profile-data", profile)
            return try shrunk(toLongestSide: size)
        case .sRGB:
            return try shrunk(toLongestSide: size)
        }
    }
}
