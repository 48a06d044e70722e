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

/// The APP12 "Picture Info" segment of old cameras (the Olympus D-320L, Agfa, Polaroid):
/// ASCII `key=value` lines under `[section]` headers. exiftool (APP12.pm) reads TimeDate
/// as DateTimeOriginal (Unix seconds, in UTC, or a date), Shutter/shtr as the exposure in
/// microseconds, and FNumber with any leading letters ("F2.8") dropped — each with a lower
/// priority than the EXIF value.
extension VendorValues {
    init(pictureInfo payload: UnsafeRawBufferPointer) {
        self.init()
        for (key, value) in Self.pairs(String(decoding: payload, as: UTF8.self)) {
            switch key {
            case "TimeDate":
                if let seconds = Int(value), seconds >= 0 {
                    dateTaken = ISO8601Format.utc(Date(timeIntervalSince1970: TimeInterval(seconds)))
                        .replacingOccurrences(of: "Z", with: "")
                } else {
                    dateTaken = ExifDate.iso8601(fromExif: value)
                }
            case "Shutter", "shtr":
                exposureTime = Double(value).map { $0 * 1e-6 }.flatMap { $0 > 0 ? $0 : nil }
            case "FNumber":
                fNumber = Double(value.drop { $0.isLetter || $0 == " " }).flatMap { $0 > 0 ? $0 : nil }
            default: break
            }
        }
    }

    /// `key=value` pairs of printable text; a value runs to the end of its line or to the
    /// next `key=` on it, as exiftool's pattern reads them.
    private static func pairs(_ text: String) -> [(String, String)] {
        var result: [(String, String)] = []
        for line in text.split(whereSeparator: { $0.isNewline || $0 == "\0" }) where !line.hasPrefix("[") {
            let lineStart = result.count
            for word in line.split(separator: " ") {
                if let equals = word.firstIndex(of: "="), equals != word.startIndex {
                    result.append((String(word[..<equals]), String(word[word.index(after: equals)...])))
                } else if result.count > lineStart {
                    result[result.count - 1].1 += " " + word
                }
            }
        }
        return result.map { ($0.0, $0.1.trimmingCharacters(in: .whitespaces)) }
    }
}
