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

import Foundation

/// What AVCHD camcorders (Sony, Panasonic, Canon, JVC) record in their H.264 stream and
/// nowhere else: the Modified Digital Video Pack Metadata (MDPM), an unregistered user
/// data SEI message (payload type 5) whose UUID is 17ee8c60-f84d-11d9-8cd6-0800200c9a66
/// followed by "MDPM", a count, and 5-byte entries (a tag, then 4 bytes). Read as
/// exiftool's Image::ExifTool::H264 documents it: 0x18 and 0x19 the date (a time-zone
/// byte, then BCD year, month, day, hour, minute, second), 0xe0 the maker's code
/// (0x0103 Panasonic, 0x0108 Sony, 0x1011 Canon, 0x1104 JVC), 0xe4–0xe6 Sony's model
/// name, 0xa0 the exposure time (else 0x7f's shutter record) and 0xa1 the f-number
/// (16-bit numerator and denominator); multi-byte values big-endian but for 0x7f. The NAL units come in Annex B byte
/// streams (start codes), their emulation-prevention bytes removed before reading.
struct AVCHDMetadata: Equatable {
    var dateTaken: String?
    var make: String?
    var model: String?
    var exposureTime: Double?
    var fNumber: Double?

    static let uuid: [UInt8] = [
        0x17, 0xEE, 0x8C, 0x60, 0xF8, 0x4D, 0x11, 0xD9, 0x8C, 0xD6, 0x08, 0x00, 0x20, 0x0C, 0x9A, 0x66,
    ]
    static let makers: [Int: String] = [0x0103: "Panasonic", 0x0108: "Sony", 0x1011: "Canon", 0x1104: "JVC"]

    /// The MDPM of the first SEI in an H.264 Annex B stream that has one.
    init?(annexB stream: UnsafeRawBufferPointer) {
        for nal in Self.nalUnits(stream) where nal.first.map({ $0 & 0x1F }) == 6 {
            if let found = Self.userData(sei: Self.unescaped(nal.dropFirst())) {
                self = found
                return
            }
        }
        return nil
    }

    private init() {}

    /// The NAL units between start codes (00 00 01, or 00 00 00 01).
    static func nalUnits(_ bytes: UnsafeRawBufferPointer) -> [ArraySlice<UInt8>] {
        let all = Array(bytes)
        var starts: [Int] = []
        var index = 0
        while index + 2 < all.count {
            if all[index] == 0, all[index + 1] == 0, all[index + 2] == 1 {
                starts.append(index + 3)
                index += 3
            } else {
                index += 1
            }
        }
        return starts.enumerated().map { position, start in
            var end = position + 1 < starts.count ? starts[position + 1] - 3 : all.count
            while end > start, all[end - 1] == 0 { end -= 1 }  // the zero of a 4-byte start code
            return all[start..<max(start, end)]
        }
    }

    /// A NAL unit's payload without its emulation-prevention bytes (00 00 03 → 00 00).
    static func unescaped(_ nal: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(nal.count)
        var zeros = 0
        for byte in nal {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            out.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return out
    }

    /// The MDPM of an SEI's unregistered user data, if it carries one.
    static func userData(sei: [UInt8]) -> AVCHDMetadata? {
        var at = 0
        while at < sei.count {
            var type = 0
            var size = 0
            while at < sei.count, sei[at] == 0xFF {
                type += 255
                at += 1
            }
            guard at < sei.count else { return nil }
            type += Int(sei[at])
            at += 1
            while at < sei.count, sei[at] == 0xFF {
                size += 255
                at += 1
            }
            guard at < sei.count else { return nil }
            size += Int(sei[at])
            at += 1
            guard type != 0x80, at + size <= sei.count else { return nil }
            if type == 5, size > 21, Array(sei[at..<(at + 16)]) == uuid,
                Array(sei[(at + 16)..<(at + 20)]) == Array("MDPM".utf8)
            {
                return entries(Array(sei[(at + 20)..<(at + size)]))
            }
            at += size
        }
        return nil
    }

    /// A count, then 5-byte entries in rising tag order.
    private static func entries(_ payload: [UInt8]) -> AVCHDMetadata? {
        guard let count = payload.first else { return nil }
        var values: [UInt8: [UInt8]] = [:]
        var at = 1
        var last = -1
        for _ in 0..<Int(count) {
            guard at + 5 <= payload.count, Int(payload[at]) > last else { break }
            last = Int(payload[at])
            values[payload[at]] = Array(payload[(at + 1)..<(at + 5)])
            at += 5
        }
        var found = AVCHDMetadata()
        if let first = values[0x18], let second = values[0x19] {
            found.dateTaken = date(first + second)
        }
        if let maker = values[0xE0] {
            found.make = makers[Int(maker[0]) << 8 | Int(maker[1])]
        }
        if found.make == "Sony", let first = values[0xE4] {
            let text = (first + (values[0xE5] ?? []) + (values[0xE6] ?? [])).prefix { $0 != 0 }
            let model = String(decoding: text, as: UTF8.self).trimmingWhitespace
            found.model = model.isEmpty ? nil : model
        }
        // 0xA0 ExposureTime, else the Shutter record 0x7F: its second 16-bit value (little-
        // endian, 0x7FFF none) over 28125 seconds.
        found.exposureTime =
            values[0xA0].flatMap(rational)
            ?? values[0x7F].flatMap { shutter in
                let value = (Int(shutter[2]) | Int(shutter[3]) << 8) & 0x7FFF
                return value == 0x7FFF || value == 0 ? nil : Double(value) / 28125
            }
        found.fNumber = values[0xA1].flatMap(rational)
        return found
    }

    /// A 16-bit numerator and denominator; nil for 0/0 and other garbage.
    private static func rational(_ bytes: [UInt8]) -> Double? {
        let numerator = Double(Int(bytes[0]) << 8 | Int(bytes[1]))
        let denominator = Double(Int(bytes[2]) << 8 | Int(bytes[3]))
        guard numerator > 0, denominator > 0 else { return nil }
        return numerator / denominator
    }

    /// Time zone byte (0x20 sign, 0x1E hours × 2, 0x01 half hour), then BCD YYYY MM DD hh mm ss.
    private static func date(_ bytes: [UInt8]) -> String? {
        func bcd(_ byte: UInt8) -> Int? {
            let high = Int(byte >> 4)
            let low = Int(byte & 0x0F)
            return high < 10 && low < 10 ? high * 10 + low : nil
        }
        guard bytes.count >= 8, let century = bcd(bytes[1]), let year = bcd(bytes[2]), let month = bcd(bytes[3]),
            let day = bcd(bytes[4]), let hour = bcd(bytes[5]), let minute = bcd(bytes[6]), let second = bcd(bytes[7])
        else { return nil }
        let zone = bytes[0]
        var text = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d",
            century * 100 + year,
            month,
            day,
            hour,
            minute,
            second
        )
        text +=
            (zone & 0x20 != 0 ? "-" : "+") + String(format: "%02d:", Int(zone >> 1) & 0x0F)
            + (zone & 0x01 != 0 ? "30" : "00")
        return VideoDate.iso8601(text)
    }
}
