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

/// The dates video containers record, as photomill's `dateTaken` (ISO 8601).
///
/// Two sources, two meanings: Apple's `com.apple.quicktime.creationdate` is local time with
/// its offset ("2019-05-18T12:00:00+0200" → "2019-05-18T12:00:00+02:00"); the container's
/// `creation_time` (the movie header's date, which the QuickTime spec defines as UTC, as
/// FFmpeg prints it: "2020-05-11T14:18:35.000000Z") → "2020-05-11T14:18:35Z". Dates of a
/// clock never set — the container epochs 1904-01-01 and 1970-01-01, and year 0000 — are
/// no dates, and neither is anything out of range.
enum VideoDate {
    /// A date with an optional offset: "YYYY-MM-DDTHH:MM:SS", then optional fractional
    /// seconds, then "Z", "±HH:MM", "±HHMM", "±HH" or nothing (local time, no offset). A
    /// space may stand for the "T". "Z" and a zero offset stay as written ("Z", "+00:00").
    static func iso8601(_ text: String) -> String? {
        let chars = Array(text.trimmingWhitespace.utf8)
        guard chars.count >= 19,
            let year = number(chars, 0, 4), chars[4] == UInt8(ascii: "-"),
            let month = number(chars, 5, 2), chars[7] == UInt8(ascii: "-"),
            let day = number(chars, 8, 2), chars[10] == UInt8(ascii: "T") || chars[10] == UInt8(ascii: " "),
            let hour = number(chars, 11, 2), chars[13] == UInt8(ascii: ":"),
            let minute = number(chars, 14, 2), chars[16] == UInt8(ascii: ":"),
            let second = number(chars, 17, 2)
        else { return nil }
        guard isPlausible(year: year, month: month, day: day), hour < 24, minute < 60, second <= 60 else { return nil }

        var rest = chars[19...]
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            let digits = rest.prefix { (0x30...0x39).contains($0) }
            guard !digits.isEmpty else { return nil }
            rest = rest.dropFirst(digits.count)
        }
        let offset: String
        switch rest.first {
        case nil: offset = ""
        case UInt8(ascii: "Z"):
            guard rest.count == 1 else { return nil }
            offset = "Z"
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard let parsed = Self.offset(Array(rest)) else { return nil }
            offset = parsed
        default: return nil
        }
        let date = String(decoding: chars[0..<10], as: UTF8.self)
        let time = String(decoding: chars[11..<19], as: UTF8.self)
        return "\(date)T\(time)\(offset)"
    }

    /// "±HH:MM", "±HHMM" or "±HH" as "±HH:MM"; at most 18 hours (ISO 8601's limit).
    private static func offset(_ chars: [UInt8]) -> String? {
        let sign = chars[0] == UInt8(ascii: "-") ? "-" : "+"
        let body = Array(chars.dropFirst())
        let hours = number(body, 0, 2)
        let minutes: Int?
        switch body.count {
        case 2: minutes = 0
        case 4: minutes = number(body, 2, 2)
        case 5 where body[2] == UInt8(ascii: ":"): minutes = number(body, 3, 2)
        default: return nil
        }
        guard let hours, let minutes, hours <= 18, minutes < 60 else { return nil }
        return sign + twoDigits(hours) + ":" + twoDigits(minutes)
    }

    /// A calendar date that a camera's clock could have written: year 0000 and the two
    /// epochs (1904-01-01 of QuickTime, 1970-01-01 of Unix, which FFmpeg produces from a
    /// zero or tiny movie-header date) are a clock never set.
    private static func isPlausible(year: Int, month: Int, day: Int) -> Bool {
        guard year >= 1800, (1...12).contains(month) else { return false }
        let days = [
            31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
        ]
        guard (1...days[month - 1]).contains(day) else { return false }
        return !(month == 1 && day == 1 && (year == 1904 || year == 1970))
    }

    private static func number(_ chars: [UInt8], _ start: Int, _ length: Int) -> Int? {
        guard start + length <= chars.count else { return nil }
        var value = 0
        for char in chars[start..<start + length] {
            guard (0x30...0x39).contains(char) else { return nil }
            value = value * 10 + Int(char - 0x30)
        }
        return value
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

extension String {
    /// Without leading and trailing spaces, tabs, newlines and NULs (containers pad
    /// strings with them).
    var trimmingWhitespace: String {
        let isPadding: (Character) -> Bool = { $0.isWhitespace || $0 == "\0" }
        guard let first = firstIndex(where: { !isPadding($0) }), let last = lastIndex(where: { !isPadding($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
