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

import CExif
import Foundation

/// Owns a libexif `ExifData` being filled with entries and serialises it.
///
/// Entries are little-endian ("II"), the byte order most cameras write.
final class ExifBuilder {
    private let data: UnsafeMutablePointer<ExifData>
    private let order = EXIF_BYTE_ORDER_INTEL

    init() {
        // exif_data_new fails only when malloc does; there is nothing sensible to recover.
        guard let data = exif_data_new() else { fatalError("libexif: out of memory") }
        // FOLLOW_SPECIFICATION would let libexif add or "fix" entries we did not ask
        // for; the samples must hold exactly the fields their spec lists.
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_set_byte_order(data, order)
        self.data = data
    }

    deinit { exif_data_unref(data) }

    /// The new entry's value storage, owned by `data`.
    private func add(_ ifd: ExifIFD, _ tag: UInt32, _ format: ExifFormat, count: Int) -> UnsafeMutablePointer<UInt8> {
        guard let entry = pm_exif_add(data, ifd.raw, tag, format, UInt(count)), let storage = entry.pointee.data else {
            fatalError("libexif: out of memory")
        }
        return storage
    }

    /// NUL-terminated, as EXIF ASCII values must be.
    func ascii(_ ifd: ExifIFD, _ tag: UInt32, _ value: String) {
        let bytes = Array(value.utf8) + [0]
        let storage = add(ifd, tag, EXIF_FORMAT_ASCII, count: bytes.count)
        storage.update(from: bytes, count: bytes.count)
    }

    func bytes(_ ifd: ExifIFD, _ tag: UInt32, _ values: [UInt8], format: ExifFormat = EXIF_FORMAT_BYTE) {
        let storage = add(ifd, tag, format, count: values.count)
        storage.update(from: values, count: values.count)
    }

    func shorts(_ ifd: ExifIFD, _ tag: UInt32, _ values: [UInt16]) {
        let storage = add(ifd, tag, EXIF_FORMAT_SHORT, count: values.count)
        for (index, value) in values.enumerated() { exif_set_short(storage + 2 * index, order, value) }
    }

    /// Returns the storage so that a value known only after layout (a TIFF strip
    /// offset) can be patched with `setLong`.
    @discardableResult
    func long(_ ifd: ExifIFD, _ tag: UInt32, _ value: UInt32) -> UnsafeMutablePointer<UInt8> {
        let storage = add(ifd, tag, EXIF_FORMAT_LONG, count: 1)
        exif_set_long(storage, order, value)
        return storage
    }

    func setLong(_ storage: UnsafeMutablePointer<UInt8>, _ value: UInt32) {
        exif_set_long(storage, order, value)
    }

    func rationals(_ ifd: ExifIFD, _ tag: UInt32, _ values: [Rational]) {
        let storage = add(ifd, tag, EXIF_FORMAT_RATIONAL, count: values.count)
        for (index, value) in values.enumerated() {
            exif_set_rational(
                storage + 8 * index,
                order,
                ExifRational(numerator: value.numerator, denominator: value.denominator)
            )
        }
    }

    /// "Exif\0\0" followed by the TIFF structure (offsets count from the "II").
    func save() -> [UInt8] {
        var size: UInt32 = 0
        guard let out = pm_exif_save(data, &size) else { fatalError("libexif: could not serialise EXIF") }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }
}

struct Rational: Hashable {
    var numerator: UInt32
    var denominator: UInt32

    /// `value` as n/denominator, reduced.
    init(_ value: Double, denominator: UInt32) {
        let scaled = (max(0, value) * Double(denominator)).rounded()
        self.init(numerator: UInt32(min(scaled, Double(UInt32.max))), denominator: denominator)
    }

    init(numerator: UInt32, denominator: UInt32) {
        var a = numerator
        var b = denominator
        while b != 0 { (a, b) = (b, a % b) }
        let divisor = max(a, 1)
        self.numerator = numerator / divisor
        self.denominator = denominator / divisor
    }

    /// Exposure times as cameras write them: 1/250 rather than 4/1000, because readers
    /// (and photographers) show the fraction as is.
    static func exposure(_ seconds: Double) -> Rational {
        if seconds > 0, seconds < 1 {
            let reciprocal = (1 / seconds).rounded()
            // Only when 1/N is the value: 0.3 s must not become 1/3 s.
            if reciprocal <= Double(UInt32.max), abs(1 / reciprocal - seconds) <= seconds * 1e-4 {
                return Rational(numerator: 1, denominator: UInt32(reciprocal))
            }
            return Rational(seconds, denominator: 1_000_000)
        }
        return Rational(seconds, denominator: 10)
    }

    /// Degrees, minutes and seconds of |value|, seconds to 1/10000 (about 3 mm).
    static func dms(_ degrees: Double) -> [Rational] {
        let tenThousandths = UInt64((abs(degrees) * 3600 * 10_000).rounded())
        let whole = tenThousandths / (3600 * 10_000)
        let rest = tenThousandths % (3600 * 10_000)
        return [
            Rational(numerator: UInt32(whole), denominator: 1),
            Rational(numerator: UInt32(rest / (60 * 10_000)), denominator: 1),
            // Not reduced: readers show 12.3456" better as 123456/10000.
            Rational(rawNumerator: UInt32(rest % (60 * 10_000)), denominator: 10_000),
        ]
    }

    private init(rawNumerator: UInt32, denominator: UInt32) {
        numerator = rawNumerator
        self.denominator = denominator
    }
}
