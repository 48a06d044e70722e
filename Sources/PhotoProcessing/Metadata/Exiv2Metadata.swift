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

import CExiv2
import Foundation

/// What exiv2 0.27 read from one file or EXIF block (through `CExiv2`, which catches every
/// C++ exception): its EXIF values by exiv2's keys, its XMP packet and the pixel size of
/// the container's own header. Owns exiv2's result and frees it in `deinit`; the bytes it
/// was read from are not kept (exiv2 copies what it parsed).
final class Exiv2Metadata {
    private let handle: OpaquePointer

    /// Why exiv2 could not read the bytes, in its words.
    struct Failure: Error {
        let reason: String
    }

    /// Reads a whole file: the container decides where the EXIF and XMP are.
    init(file bytes: UnsafeRawBufferPointer) throws(Failure) {
        handle = try Self.open { pm_exiv2_read($0, $1, $2, $3) }(bytes)
    }

    /// Reads an EXIF block (a TIFF structure, with or without "Exif\0\0" in front).
    init(exifBlock bytes: UnsafeRawBufferPointer) throws(Failure) {
        handle = try Self.open { pm_exiv2_read_exif($0, $1, $2, $3) }(bytes)
    }

    /// Parses an XMP packet alone; its `xmpPacket` is then the packet as exiv2's XMP
    /// toolkit writes it again (well-formed, whatever the bytes were).
    init(xmpPacket bytes: UnsafeRawBufferPointer) throws(Failure) {
        handle = try Self.open { pm_exiv2_read_xmp($0, $1, $2, $3) }(bytes)
    }

    deinit { pm_exiv2_free(handle) }

    private static func open(
        _ read: @escaping (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<CChar>?, Int) -> OpaquePointer?
    ) -> (UnsafeRawBufferPointer) throws(Failure) -> OpaquePointer {
        { (bytes: UnsafeRawBufferPointer) throws(Failure) -> OpaquePointer in
            var error = [CChar](repeating: 0, count: 256)
            let capacity = error.count
            let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            guard let handle = read(start, bytes.count, &error, capacity) else {
                throw Failure(reason: String(cString: error))
            }
            return handle
        }
    }

    /// exiv2's run-time version, "0.27.6".
    static var version: String { String(cString: pm_exiv2_version()) }

    /// The container's own pixel size (JPEG frame header, PNG IHDR, HEIF `ispe`, a TIFF's
    /// first image); nil when it has none.
    var pixelSize: (width: Int, height: Int)? {
        var width: Int64 = 0
        var height: Int64 = 0
        pm_exiv2_pixel_size(handle, &width, &height)
        return width > 0 && height > 0 ? (Int(width), Int(height)) : nil
    }

    /// Whether exiv2 found any EXIF entry.
    var hasExif: Bool { pm_exiv2_exif_count(handle) > 0 }

    /// "image/jpeg", "image/x-canon-crw"; "" for an EXIF block.
    var mimeType: String { String(cString: pm_exiv2_mime_type(handle)) }

    /// The file's XMP as exiv2's XMP toolkit parsed it, written out again (well-formed
    /// UTF-8: Foundation's XML parser, which reads it next, crashed on damaged packets).
    var xmpPacket: Data? {
        var length = 0
        guard let packet = pm_exiv2_xmp_packet(handle, &length), length > 0 else { return nil }
        return Data(bytes: packet, count: length)
    }

    /// An ASCII or UNDEFINED value up to its first NUL, trimmed; nil when absent or blank.
    func text(_ key: String) -> String? {
        Self.string { pm_exiv2_exif_text(handle, key, $0, $1) }
    }

    /// A value as exiv2 prints it for people (a maker note's coded ISO as "400").
    func interpreted(_ key: String) -> String? {
        Self.string { pm_exiv2_exif_interpreted(handle, key, $0, $1) }
    }

    /// A value's bytes as stored (an undecoded maker note), at most 1 MiB.
    func bytes(_ key: String) -> [UInt8]? {
        let size = pm_exiv2_exif_bytes(handle, key, nil, 0)
        guard size > 0, size <= 1 << 20 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let copied = bytes.withUnsafeMutableBufferPointer { pm_exiv2_exif_bytes(handle, key, $0.baseAddress, $0.count) }
        return copied == size ? bytes : nil
    }

    /// The numeric components of a value; nil when absent, not numeric, or a rational has
    /// a zero denominator.
    func numbers(_ key: String) -> [Double]? {
        var values = [Double](repeating: 0, count: 8)
        var count = values.withUnsafeMutableBufferPointer {
            pm_exiv2_exif_numbers(handle, key, $0.baseAddress, Int64($0.count))
        }
        guard count > 0 else { return nil }
        if count > values.count {
            values = [Double](repeating: 0, count: Int(min(count, 1 << 16)))
            count = values.withUnsafeMutableBufferPointer {
                pm_exiv2_exif_numbers(handle, key, $0.baseAddress, Int64($0.count))
            }
        }
        return Array(values.prefix(Int(max(0, count))))
    }

    /// The key exiv2's easy-access look-up chooses for a value cameras keep in several
    /// places (EXIF first, then each maker's note, in exiv2's order).
    func easyKey(_ which: Easy) -> String? {
        Self.string { pm_exiv2_easy_key(handle, which.c, $0, $1) }
    }

    /// The easy-access look-ups photomill uses (exiv2's easyaccess.hpp).
    enum Easy {
        case isoSpeed, fNumber, exposureTime, focalLength

        var c: pm_exiv2_easy {
            switch self {
            case .isoSpeed: PM_EXIV2_ISO_SPEED
            case .fNumber: PM_EXIV2_F_NUMBER
            case .exposureTime: PM_EXIV2_EXPOSURE_TIME
            case .focalLength: PM_EXIV2_FOCAL_LENGTH
            }
        }
    }

    /// The number an easy-access look-up finds outside the EXIF IFDs (in a maker note), as
    /// exiv2 prints it: "400", "F2.8", "24.0 mm", "1/60 s". Nil when it finds none there.
    func makerNoteNumber(_ which: Easy) -> Double? {
        guard let key = easyKey(which), !key.hasPrefix("Exif.Photo."), !key.hasPrefix("Exif.Image."),
            var text = interpreted(key)
        else { return nil }
        if text.hasPrefix("F") { text.removeFirst() }
        let number = text.prefix { $0.isNumber || $0 == "." || $0 == "/" }
        let parts = number.split(separator: "/").compactMap { Double($0) }
        guard let first = parts.first else { return nil }
        let value = parts.count == 2 ? (parts[1] > 0 ? first / parts[1] : 0) : first
        return value.isFinite && value > 0 ? value : nil
    }

    /// A string from a call that copies into a buffer and returns the full length.
    private static func string(_ copy: (UnsafeMutablePointer<CChar>, Int) -> Int64) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        var length = buffer.withUnsafeMutableBufferPointer { copy($0.baseAddress!, $0.count) }
        guard length >= 0 else { return nil }
        if length >= buffer.count {
            buffer = [CChar](repeating: 0, count: Int(min(length, 1 << 20)) + 1)
            length = buffer.withUnsafeMutableBufferPointer { copy($0.baseAddress!, $0.count) }
        }
        let bytes = buffer.prefix(Int(min(length, Int64(buffer.count - 1)))).map { UInt8(bitPattern: $0) }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines.union(.controlCharacters)
        )
        return text.isEmpty ? nil : text
    }
}
