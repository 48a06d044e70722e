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

/// Process-wide libvips state. `vips_init` must run once before any other call.
enum Vips {
    private static let initialised: Bool = {
        guard pm_vips_init("photomill") == 0 else { return false }
        // Parallelism comes from processing many photos at once (one thread per photo),
        // so libvips' own worker pool would only oversubscribe the cores.
        vips_concurrency_set(1)
        // The operation cache keeps decoded buffers alive between photos for no gain.
        vips_cache_set_max(0)
        return true
    }()

    static func ensureInitialised() throws(VipsError) {
        guard initialised else { throw VipsError(message: "libvips failed to initialise: \(takeError())") }
    }

    /// Forgets what libvips wrote to its error buffer during an operation that succeeded
    /// anyway (HEIF loads leave "bad seek" notes there), so a later failure's message is
    /// only its own. The buffer is process-wide: this narrows, not closes, the window in
    /// which another thread's failure can pick up foreign text.
    /// Safe before libvips is initialised (a RAW path that decodes nothing may be the
    /// process's first): glib's error buffer does not exist until then.
    static func clearError() {
        guard (try? ensureInitialised()) != nil else { return }
        vips_error_clear()
    }

    /// Takes libvips' error buffer (which is process-wide) and clears it.
    static func takeError() -> String {
        guard let copy = vips_error_buffer_copy() else { return "unknown libvips error" }
        defer { pm_g_free(copy) }
        let text = String(cString: copy).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "unknown libvips error" : text.replacingOccurrences(of: "\n", with: "; ")
    }
}

/// What libvips said when an operation failed (its error buffer's text).
public struct VipsError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// Owns one `VipsImage` reference and drops it in `deinit`.
final class VipsImageRef {
    let pointer: UnsafeMutablePointer<VipsImage>

    init(_ pointer: UnsafeMutablePointer<VipsImage>) { self.pointer = pointer }
    deinit { pm_g_object_unref(pointer) }

    var width: Int { Int(vips_image_get_width(pointer)) }
    var height: Int { Int(vips_image_get_height(pointer)) }
    var bands: Int { Int(vips_image_get_bands(pointer)) }
    var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }
    var interpretation: VipsInterpretation { vips_image_get_interpretation(pointer) }
    var format: VipsBandFormat { vips_image_get_format(pointer) }

    /// The loader libvips chose, e.g. "jpegload_buffer".
    var loader: String? { string("vips-loader") }

    func string(_ field: String) -> String? {
        guard vips_image_get_typeof(pointer, field) != 0 else { return nil }
        var value: UnsafePointer<CChar>?
        guard vips_image_get_string(pointer, field, &value) == 0, let value else { return nil }
        return String(cString: value)
    }

    func integer(_ field: String) -> Int? {
        guard vips_image_get_typeof(pointer, field) != 0 else { return nil }
        var value: Int32 = 0
        return vips_image_get_int(pointer, field, &value) == 0 ? Int(value) : nil
    }

    func blob(_ field: String) -> [UInt8]? {
        guard vips_image_get_typeof(pointer, field) != 0 else { return nil }
        var data: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_blob(pointer, field, &data, &length) == 0, let data, length > 0 else { return nil }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    func setBlob(_ field: String, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { vips_image_set_blob_copy(pointer, field, $0.baseAddress, $0.count) }
    }

    /// Runs a libvips operation that writes one output image.
    func apply(
        _ operation: (UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32
    ) throws(VipsError) -> VipsImageRef {
        var out: UnsafeMutablePointer<VipsImage>?
        guard operation(pointer, &out) == 0, let out else { throw VipsError(message: Vips.takeError()) }
        return VipsImageRef(out)
    }

    /// Decodes every pixel into memory (the moment truncated data is noticed).
    func pixels() throws(VipsError) -> [UInt8] {
        var size = 0
        guard let memory = vips_image_write_to_memory(pointer, &size) else {
            throw VipsError(message: Vips.takeError())
        }
        defer { pm_g_free(memory) }
        return Array(UnsafeRawBufferPointer(start: memory, count: size))
    }

    /// Converts to 8-bit sRGB (or grey) without alpha, ready for JPEG or OCR.
    func flattenedSRGB(grey: Bool = false) throws(VipsError) -> VipsImageRef {
        var image = self
        if image.hasAlpha { image = try image.apply { pm_vips_flatten_white($0, $1) } }
        let target = grey ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB
        if image.interpretation != target {
            image = try image.apply { pm_vips_colourspace($0, $1, target) }
        }
        if image.format != VIPS_FORMAT_UCHAR { image = try image.apply { pm_vips_cast_uchar($0, $1) } }
        return image
    }

    /// Encodes with one of the `pm_vips_*save` shims; the buffer is copied into Swift.
    func encode(
        _ save: (
            UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>
        ) -> Int32
    ) throws(VipsError) -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard save(pointer, &buffer, &length) == 0, let buffer else { throw VipsError(message: Vips.takeError()) }
        defer { pm_g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// Opens an image from memory, reading only its header.
    static func header(of bytes: UnsafeRawBufferPointer) throws(VipsError) -> VipsImageRef {
        try Vips.ensureInitialised()
        guard let image = pm_vips_header(bytes.baseAddress, bytes.count) else {
            throw VipsError(message: Vips.takeError())
        }
        return VipsImageRef(image)
    }

    /// Opens an image from memory to decode it whole (no shrink-on-load), failing on
    /// damaged data when its pixels are read.
    static func loading(_ bytes: UnsafeRawBufferPointer) throws(VipsError) -> VipsImageRef {
        try Vips.ensureInitialised()
        guard let image = pm_vips_load(bytes.baseAddress, bytes.count) else {
            throw VipsError(message: Vips.takeError())
        }
        return VipsImageRef(image)
    }

    /// Shrink-on-load thumbnail whose longest side is at most `size`, upright.
    static func thumbnail(of bytes: UnsafeRawBufferPointer, size: Int) throws(VipsError) -> VipsImageRef {
        try Vips.ensureInitialised()
        var out: UnsafeMutablePointer<VipsImage>?
        let base = UnsafeMutableRawPointer(mutating: bytes.baseAddress)
        guard pm_vips_thumbnail(base, bytes.count, &out, Int32(size)) == 0, let out else {
            throw VipsError(message: Vips.takeError())
        }
        return VipsImageRef(out)
    }

    /// Like `thumbnail(of:size:)`, leaving the orientation to the caller (a RAW's embedded
    /// preview, whose own EXIF may disagree with the RAW's).
    static func thumbnailUnrotated(of bytes: UnsafeRawBufferPointer, size: Int) throws(VipsError) -> VipsImageRef {
        try Vips.ensureInitialised()
        var out: UnsafeMutablePointer<VipsImage>?
        let base = UnsafeMutableRawPointer(mutating: bytes.baseAddress)
        guard pm_vips_thumbnail_norotate(base, bytes.count, &out, Int32(size)) == 0, let out else {
            throw VipsError(message: Vips.takeError())
        }
        return VipsImageRef(out)
    }

    /// Shrunk to at most `size` on its longest side; never upscaled.
    func shrunk(toLongestSide size: Int) throws(VipsError) -> VipsImageRef {
        try apply { pm_vips_thumbnail_image($0, $1, Int32(size)) }
    }

    /// Upright: EXIF orientation `orientation` (1…8) applied to the pixels.
    func oriented(_ orientation: Int) throws(VipsError) -> VipsImageRef {
        guard (2...8).contains(orientation) else { return self }
        return try apply { pm_vips_orient($0, $1, Int32(orientation)) }
    }

    /// Wraps packed pixels (copied): 8-bit, or 16-bit in host order for `VIPS_FORMAT_USHORT`.
    static func fromPixels(
        _ pixels: [UInt8],
        width: Int,
        height: Int,
        bands: Int,
        format: VipsBandFormat = VIPS_FORMAT_UCHAR
    ) throws(VipsError) -> VipsImageRef {
        try Vips.ensureInitialised()
        let image = pixels.withUnsafeBytes {
            vips_image_new_from_memory_copy($0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands), format)
        }
        guard let image else { throw VipsError(message: Vips.takeError()) }
        return VipsImageRef(image)
    }
}
