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

import CLibRaw

/// One LibRaw decoder (`libraw_data_t`) over one RAW in memory; `libraw_close` in deinit.
///
/// libraw_r is thread-safe per handle, and a worker decodes one photo per thread, so each
/// decode makes its own handle and nothing is shared. LibRaw reads the caller's buffer
/// without copying it: the buffer must outlive the handle.
final class LibRawHandle {
    private let raw: UnsafeMutablePointer<libraw_data_t>
    private let dataErrors: UnsafeMutablePointer<pm_libraw_data_errors>
    private let bytes: UnsafeRawBufferPointer

    /// A handle for `bytes`, not yet opened. The processing parameters are set now,
    /// before `open`, because LibRaw derives the output size from them when it opens.
    init(for bytes: UnsafeRawBufferPointer) throws(LibRawError) {
        guard let raw = libraw_init(0) else { throw LibRawError(code: LIBRAW_UNSUFFICIENT_MEMORY.rawValue) }
        self.raw = raw
        self.bytes = bytes
        dataErrors = .allocate(capacity: 1)
        dataErrors.initialize(to: pm_libraw_data_errors())
        pm_libraw_quiet(raw, dataErrors)
        raw.pointee.params.half_size = 1  // one RGB pixel per 2×2 Bayer cell: no demosaic
        raw.pointee.params.use_camera_wb = 1  // the white balance the photographer shot with
        raw.pointee.params.output_color = 1  // sRGB primaries
        raw.pointee.params.output_bps = 8
        raw.pointee.params.gamm.0 = 1 / 2.4  // the sRGB curve (dcraw's default is BT.709's)
        raw.pointee.params.gamm.1 = 12.92
    }

    deinit {
        libraw_close(raw)
        dataErrors.deallocate()
    }

    /// Parses the headers (no pixel is read). Also opens the buffer again after a fatal
    /// error made LibRaw recycle the handle.
    func open() throws(LibRawError) {
        let base = UnsafeMutableRawPointer(mutating: bytes.baseAddress)
        try LibRawError.check(libraw_open_buffer(raw, base, bytes.count))
    }

    /// The sensor's size, margins included: what unpacking allocates 2 bytes per pixel for.
    var rawSize: (width: Int, height: Int) {
        (Int(raw.pointee.sizes.raw_width), Int(raw.pointee.sizes.raw_height))
    }

    /// LibRaw's `flip`, how the sensor's picture is turned for display (`RawOrientation`).
    var flip: Int { Int(raw.pointee.sizes.flip) }

    /// Make and model as LibRaw read them; filled even when opening failed, as long as
    /// the headers named a camera.
    var camera: (make: String, model: String) {
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return (text(raw.pointee.idata.make), text(raw.pointee.idata.model))
    }

    /// The DNG version ("1.4.0.0") when the file is a DNG, also after opening failed.
    var dngVersion: String? {
        let version = raw.pointee.idata.dng_version
        return version == 0 ? nil : (0..<4).map { String(version >> (24 - 8 * $0) & 0xFF) }.joined(separator: ".")
    }

    /// The embedded preview LibRaw chose (0.20 exposes one: the largest it found), read
    /// into LibRaw's memory. Valid until the handle is reopened, recycled or closed.
    func unpackPreview() throws(LibRawError) -> RawPreview {
        try LibRawError.check(libraw_unpack_thumb(raw))
        let thumbnail = raw.pointee.thumbnail
        let data = UnsafeRawBufferPointer(start: thumbnail.thumb, count: Int(thumbnail.tlength))
        switch thumbnail.tformat {
        case LIBRAW_THUMBNAIL_JPEG:
            return .jpeg(data)
        case LIBRAW_THUMBNAIL_BITMAP:
            return .bitmap(
                data,
                width: Int(thumbnail.twidth),
                height: Int(thumbnail.theight),
                bands: Int(thumbnail.tcolors)
            )
        default:
            throw LibRawError(code: LIBRAW_UNSUPPORTED_THUMBNAIL.rawValue)
        }
    }

    /// Reads the raw samples. LibRaw's decoders report data they cannot make sense of
    /// through the data-error callback and carry on with garbage (exiftool's Nikon.nef,
    /// padded to a plausible size: "data corrupted at 1378", then a white picture);
    /// such reports are returned rather than ignored. Data that ends early is reported
    /// too, and then fails the call.
    func unpack() throws(LibRawError) -> DataError? {
        dataErrors.pointee = pm_libraw_data_errors()
        let code = libraw_unpack(raw)
        let report = dataErrors.pointee.count > 0 ? DataError(offset: Int(dataErrors.pointee.first_offset)) : nil
        guard code == LIBRAW_SUCCESS.rawValue else { throw LibRawError(code: code, detail: report?.description) }
        return report
    }

    /// Half-size processing (white balance, colour, gamma) into 8-bit sRGB pixels.
    ///
    /// `dcraw_make_mem_image` applies `flip` (it copies through `flip_index`, and swaps
    /// width and height for flips 4–7), so the picture is upright. LibRaw's own buffers —
    /// the raw samples (2 bytes a sensor pixel) and the working image (8 bytes an output
    /// pixel) — are freed (`libraw_recycle`) as soon as the pixels are out, so that they
    /// never coexist with the caller's copy of them.
    func process() throws(LibRawError) -> ProcessedImage {
        try LibRawError.check(libraw_dcraw_process(raw))
        var code: Int32 = 0
        guard let pointer = libraw_dcraw_make_mem_image(raw, &code) else { throw LibRawError(code: code) }
        libraw_recycle(raw)
        let processed = ProcessedImage(pointer)
        let image = pointer.pointee
        guard image.type == LIBRAW_IMAGE_BITMAP, image.bits == 8, image.colors == 1 || image.colors == 3,
            Int(image.data_size) == processed.width * processed.height * processed.bands
        else {
            throw LibRawError(code: LIBRAW_UNSPECIFIED_ERROR.rawValue)
        }
        return processed
    }

    /// The data-error callback's report during `unpack` (LibRaw makes one at most).
    struct DataError {
        /// Byte offset of the bad data, or -1 when the data ended early.
        let offset: Int

        var description: String {
            offset < 0 ? "the data ends early" : "data corrupted at byte \(offset)"
        }
    }
}

/// The pixels `dcraw_make_mem_image` made; `libraw_dcraw_clear_mem` in deinit.
final class ProcessedImage {
    private let pointer: UnsafeMutablePointer<libraw_processed_image_t>

    init(_ pointer: UnsafeMutablePointer<libraw_processed_image_t>) { self.pointer = pointer }
    deinit { libraw_dcraw_clear_mem(pointer) }

    var width: Int { Int(pointer.pointee.width) }
    var height: Int { Int(pointer.pointee.height) }
    var bands: Int { Int(pointer.pointee.colors) }
    /// Packed rows from the top, `bands` bytes a pixel.
    var pixels: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: pm_libraw_image_data(pointer), count: Int(pointer.pointee.data_size))
    }
}

/// An embedded preview, as LibRaw hands it over (pointing into the handle's memory).
enum RawPreview {
    case jpeg(UnsafeRawBufferPointer)
    /// 8-bit pixels, 1 or 3 bands, rows from the top.
    case bitmap(UnsafeRawBufferPointer, width: Int, height: Int, bands: Int)
}
