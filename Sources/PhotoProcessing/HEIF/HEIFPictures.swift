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

import CHeif
import PhotomillCore

/// A HEIF or AVIF whose pictures libheif decodes through its own API, where libvips 8.14's
/// loader gets them wrong:
///
/// - **deeper than 8 bits** (a camera's 10-bit HIF, a 10- or 12-bit AVIF): the loader
///   hands libvips the samples unscaled in a 16-bit image (1023 for white, which libvips
///   reads as 1.6 %), so the thumbnail came out black; here they are spread over 16 bits;
/// - **HDR or wide-gamut `nclx`** (BT.2100 PQ or HLG, Display P3 or BT.2020 code points):
///   the loader ignores `nclx` and shows the numbers as sRGB; here they are converted
///   (`ColourConverter`);
/// - **a thumbnail coded larger than it is** (Sony's HIF: a 320×212 thumbnail coded as
///   320×256, whole 64-pixel blocks): the loader refuses it ("bad image dimensions on
///   decode"), failing the thumbnail; here it is cut to its `ispe` size, as HEIF says.
///
/// The file's own thumbnail is decoded instead of the primary image when it is at least
/// the size asked for (the smallest such), as libvips does. A grid is decoded whole here;
/// `TiledHEIF` decodes grids tile by tile first.
///
/// Reads the bytes in place: they must outlive it. Not thread-safe.
final class HEIFPictures {
    private let file: HEIFDecoding
    private let primary: OpaquePointer
    /// The primary image's bit depth (luma).
    let bitDepth: Int
    /// How the primary image's colours are to be read.
    let colour: PictureColour

    /// Nil when libheif cannot read the file's structure.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard let file = try? HEIFDecoding(reading: bytes), let primary = file.handle else { return nil }
        self.file = file
        self.primary = primary
        bitDepth = Int(heif_image_handle_get_luma_bits_per_pixel(primary))
        colour = Self.colour(of: primary)
    }

    /// Whether libvips' loader would get the primary image wrong (above).
    var needsOwnDecoding: Bool {
        if bitDepth > 8 { return true }
        if case .encoding = colour { return true }
        return false
    }

    /// The picture at most `longestSide` on its longest side, as stored (libheif applies
    /// `irot`/`imir`; not the EXIF orientation), in 8-bit sRGB — or 16-bit for a deep
    /// picture whose colours libvips handles (`flattenedSRGB` brings it to 8). Sizes
    /// above `pixelLimit` are refused before decoding.
    func picture(_ longestSide: Int, path: String, pixelLimit: Int) throws(ProcessingError) -> VipsImageRef {
        let handle = thumbnail(atLeast: longestSide) ?? primary
        defer { if handle != primary { heif_image_handle_release(handle) } }
        let width = Int(heif_image_handle_get_width(handle))
        let height = Int(heif_image_handle_get_height(handle))
        try ProcessingError.checkPixels(width: width, height: height, limit: pixelLimit, path: path)
        let decoded: VipsImageRef
        do {
            decoded = try file.decode(handle, width: width, height: height)
        } catch {
            throw ProcessingError(.corrupt, "\(path): HEIF image data is damaged: libheif: \(error.message)")
        }
        let colour = handle == primary ? colour : Self.colour(of: handle)
        return try PhotoProcessor.damaged(path) { () throws(VipsError) in
            try decoded.shrunk(toLongestSide: longestSide, colour: colour).inMemory()
        }
    }

    /// The smallest of the primary image's thumbnails whose longest side reaches
    /// `longestSide`, or nil; the caller releases it.
    private func thumbnail(atLeast longestSide: Int) -> OpaquePointer? {
        let count = Int(heif_image_handle_get_number_of_thumbnails(primary))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(count)))
        var best: (handle: OpaquePointer, side: Int)?
        for id in ids.prefix(listed) {
            var handle: OpaquePointer?
            guard heif_image_handle_get_thumbnail(primary, id, &handle).code == heif_error_Ok, let handle else {
                continue
            }
            let side = Int(max(heif_image_handle_get_width(handle), heif_image_handle_get_height(handle)))
            if side >= longestSide, side < best?.side ?? .max {
                if let best { heif_image_handle_release(best.handle) }
                best = (handle, side)
            } else {
                heif_image_handle_release(handle)
            }
        }
        return best?.handle
    }

    /// An image's colour: its ICC profile (libheif reports it first when there are both),
    /// else its `nclx` code points when they need converting, else sRGB.
    private static func colour(of handle: OpaquePointer) -> PictureColour {
        let type = heif_image_handle_get_color_profile_type(handle)
        if type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC {
            let size = heif_image_handle_get_raw_color_profile_size(handle)
            var profile = [UInt8](repeating: 0, count: size)
            if size > 0, heif_image_handle_get_raw_color_profile(handle, &profile).code == heif_error_Ok {
                return .profile(profile)
            }
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        guard heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx else {
            return .sRGB
        }
        defer { heif_nclx_color_profile_free(nclx) }
        return PictureColour(
            ColourEncoding(
                primariesCode: Int(nclx.pointee.color_primaries.rawValue),
                transferCode: Int(nclx.pointee.transfer_characteristics.rawValue)
            )
        )
    }
}
