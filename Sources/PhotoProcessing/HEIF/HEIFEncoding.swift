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

/// HEVC-compressed HEIF written by libheif, as libvips' `heifsave` writes it (the same
/// library, its default encoding options, the EXIF payload handed over the same way) but
/// with x265 at its `ultrafast` preset: `heifsave` cannot choose one (its `effort` does not
/// reach x265), and x265's default, `slow`, spent three quarters of `photomill samples`'
/// CPU on a few HEICs (a 1600×1200 picture: 5.2 s of CPU, 0.7 s at `ultrafast`, measured
/// with `heif-enc -p preset=…`). What the samples and the tests' fixtures are made with.
enum HEIFEncoding {
    /// `image` at `quality` (0–100), with `exif` (a payload starting "Exif\0\0", as a JPEG's
    /// APP1 carries it; libheif finds the TIFF header in it) when given.
    static func encode(_ image: RGBImage, quality: Int, exif: [UInt8]?) throws(HEIFDecoding.Failure) -> [UInt8] {
        _ = HEIFDecoding.initialised
        guard let context = heif_context_alloc() else { throw .init(message: "no memory for a context") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try HEIFDecoding.check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder))
        defer { heif_encoder_release(encoder) }
        try HEIFDecoding.check(heif_encoder_set_lossy_quality(encoder, Int32(quality)))
        try HEIFDecoding.check(heif_encoder_set_parameter_string(encoder, "preset", "ultrafast"))

        var picture: OpaquePointer?
        try HEIFDecoding.check(
            heif_image_create(
                Int32(image.width),
                Int32(image.height),
                heif_colorspace_RGB,
                heif_chroma_interleaved_RGB,
                &picture
            )
        )
        defer { heif_image_release(picture) }
        try HEIFDecoding.check(
            heif_image_add_plane(picture, heif_channel_interleaved, Int32(image.width), Int32(image.height), 8)
        )
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(picture, heif_channel_interleaved, &stride) else {
            throw .init(message: "no plane in the image libheif created")
        }
        let row = image.width * 3
        image.pixels.withUnsafeBytes { pixels in
            for y in 0..<image.height {
                (plane + y * Int(stride)).update(
                    from: pixels.baseAddress!.advanced(by: y * row).assumingMemoryBound(to: UInt8.self),
                    count: row
                )
            }
        }

        var handle: OpaquePointer?
        try HEIFDecoding.check(heif_context_encode_image(context, picture, encoder, nil, &handle))
        defer { heif_image_handle_release(handle) }
        if let exif {
            try HEIFDecoding.check(
                exif.withUnsafeBytes {
                    heif_context_add_exif_metadata(context, handle, $0.baseAddress, Int32($0.count))
                }
            )
        }

        var output: [UInt8] = []
        var writer = heif_writer(writer_api_version: 1) { _, data, size, userdata in
            let output = userdata!.assumingMemoryBound(to: [UInt8].self)
            output.pointee.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size))
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: HEIFEncoding.success)
        }
        try withUnsafeMutablePointer(to: &output) { (output) throws(HEIFDecoding.Failure) in
            try HEIFDecoding.check(heif_context_write(context, &writer, output))
        }
        return output
    }

    /// The message of the writer's `heif_error` (libheif's own successes say "Success"): a
    /// static string's bytes, which live as long as the program.
    private static var success: UnsafePointer<CChar> {
        UnsafeRawPointer(("Success" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
