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
import CVips

/// A libheif context (which reads the caller's bytes without copying them: they must
/// outlive it) and its primary image's handle, released in deinit.
final class HEIFDecoding {
    /// What libheif said when a call failed.
    struct Failure: Error {
        let message: String
    }

    let context: OpaquePointer
    private(set) var handle: OpaquePointer?

    static let initialised: Void = { _ = heif_init(nil) }()

    /// A context reading `bytes`, which must outlive it.
    init(reading bytes: UnsafeRawBufferPointer) throws(Failure) {
        _ = Self.initialised
        guard let context = heif_context_alloc() else { throw Failure(message: "no memory for a context") }
        self.context = context
        try Self.check(heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil))
        try Self.check(heif_context_get_primary_image_handle(context, &handle))
    }

    deinit {
        if let handle { heif_image_handle_release(handle) }
        heif_context_free(context)
    }

    static func check(_ error: heif_error) throws(Failure) {
        guard error.code != heif_error_Ok else { return }
        throw Failure(message: error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)")
    }

    /// Decodes `handle` to interleaved RGB (with alpha when it has one), 8 bits a sample,
    /// or 16 for deeper images, and copies the result — cut to `width` × `height` when the
    /// coded picture is larger, as a coded size rounded up to whole blocks may be —
    /// into an image libvips owns, deeper samples spread over 16 bits (`widened`);
    /// libheif's image is released before this returns.
    /// libheif applies the item's `irot` and `imir` while decoding.
    func decode(_ handle: OpaquePointer, width: Int, height: Int) throws(Failure) -> VipsImageRef {
        let deep = heif_image_handle_get_luma_bits_per_pixel(handle) > 8
        let alpha = heif_image_handle_has_alpha_channel(handle) != 0
        let chroma =
            switch (deep, alpha) {
            case (false, false): heif_chroma_interleaved_RGB
            case (false, true): heif_chroma_interleaved_RGBA
            case (true, false): heif_chroma_interleaved_RRGGBB_LE
            case (true, true): heif_chroma_interleaved_RRGGBBAA_LE
            }
        var image: OpaquePointer?
        defer { if let image { heif_image_release(image) } }
        try Self.check(heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, nil))
        guard let image else { throw Failure(message: "no decoded image") }
        return try Self.pixels(of: image, bands: alpha ? 4 : 3, deep: deep, width: width, height: height)
    }

    /// The interleaved plane, cut to at most `width` × `height`, copied row by row when
    /// libheif pads rows to a stride or the cut leaves some out.
    private static func pixels(
        of image: OpaquePointer,
        bands: Int,
        deep: Bool,
        width wantedWidth: Int,
        height wantedHeight: Int
    ) throws(Failure) -> VipsImageRef {
        #if _endian(big)
        #error("16-bit samples are decoded little-endian")
        #endif
        let decodedWidth = Int(heif_image_get_width(image, heif_channel_interleaved))
        let decodedHeight = Int(heif_image_get_height(image, heif_channel_interleaved))
        let width = wantedWidth > 0 ? min(wantedWidth, decodedWidth) : decodedWidth
        let height = wantedHeight > 0 ? min(wantedHeight, decodedHeight) : decodedHeight
        let sampleBytes = deep ? 2 : 1
        let rowBytes = width * bands * sampleBytes
        var stride: Int32 = 0
        guard width > 0, height > 0,
            let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
            Int(stride) >= rowBytes
        else { throw Failure(message: "no interleaved RGB plane") }
        let format = deep ? VIPS_FORMAT_USHORT : VIPS_FORMAT_UCHAR
        do {
            let picture: VipsImageRef
            if Int(stride) == rowBytes {
                picture = try VipsImageRef.copying(
                    UnsafeRawBufferPointer(start: plane, count: rowBytes * height),
                    width: width,
                    height: height,
                    bands: bands,
                    format: format
                )
            } else {
                var packed = [UInt8](repeating: 0, count: rowBytes * height)
                packed.withUnsafeMutableBytes { out in
                    for row in 0..<height {
                        (out.baseAddress! + row * rowBytes).copyMemory(
                            from: plane + row * Int(stride),
                            byteCount: rowBytes
                        )
                    }
                }
                picture = try VipsImageRef.fromPixels(
                    packed,
                    width: width,
                    height: height,
                    bands: bands,
                    format: format
                )
            }
            guard deep else { return picture }
            let bits = Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved))
            return try picture.widened(fromBits: bits).apply { pm_vips_interpret($0, $1, VIPS_INTERPRETATION_RGB16) }
        } catch {
            throw Failure(message: "libvips: \(error.message)")
        }
    }
}
