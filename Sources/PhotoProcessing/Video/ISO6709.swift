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

/// A point in ISO 6709's string form, as videos record their location: Apple's
/// `com.apple.quicktime.location.ISO6709` and the `©xyz` user-data atom (FFmpeg's
/// `location`), e.g. "+48.8577+002.2950+035.000/".
///
/// Latitude then longitude, each signed, in decimal degrees (±DD.D, ±DDD.D), degrees and
/// minutes (±DDMM.M, ±DDDMM.M) or degrees, minutes and seconds (±DDMMSS.S, ±DDDMMSS.S) —
/// the count of integer digits tells which; then an optional altitude, an optional
/// "CRS…" and the closing "/".
struct ISO6709: Equatable {
    let latitude: Double
    let longitude: Double

    /// Nil for anything else, for a point out of range, and for exactly (0, 0): what phones
    /// write when they had no fix (exiftool reports it as 0, 0).
    init?(_ text: String) {
        var chars = Array(text.trimmingWhitespace.utf8)
        if chars.last == UInt8(ascii: "/") { chars.removeLast() }
        if let crs = chars.firstIndex(of: UInt8(ascii: "C")) { chars.removeSubrange(crs...) }
        let parts = Self.signedParts(chars)
        guard parts.count == 2 || parts.count == 3,
            let latitude = Self.angle(parts[0], degreeDigits: 2), abs(latitude) <= 90,
            let longitude = Self.angle(parts[1], degreeDigits: 3), abs(longitude) <= 180,
            parts.count == 2 || Double(String(decoding: parts[2], as: UTF8.self)) != nil,
            latitude != 0 || longitude != 0
        else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// "+48.8577+002.2950+035.000" → ["+48.8577", "+002.2950", "+035.000"]; empty when the
    /// text does not start with a sign.
    private static func signedParts(_ chars: [UInt8]) -> [ArraySlice<UInt8>] {
        let isSign: (UInt8) -> Bool = { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
        guard let first = chars.first, isSign(first) else { return [] }
        var parts: [ArraySlice<UInt8>] = []
        var start = 0
        for index in 1..<chars.count where isSign(chars[index]) {
            parts.append(chars[start..<index])
            start = index
        }
        parts.append(chars[start...])
        return parts
    }

    /// One signed angle whose degrees take `degreeDigits` digits, possibly followed by
    /// two digits of minutes and two of seconds; a fraction belongs to the last unit.
    private static func angle(_ part: ArraySlice<UInt8>, degreeDigits: Int) -> Double? {
        let negative = part.first == UInt8(ascii: "-")
        let body = part.dropFirst()
        let integer = body.prefix { $0 != UInt8(ascii: ".") }
        let fraction = body.dropFirst(integer.count)
        guard integer.allSatisfy({ (0x30...0x39).contains($0) }),
            fraction.isEmpty || (fraction.count > 1 && fraction.dropFirst().allSatisfy({ (0x30...0x39).contains($0) })),
            let whole = Double(String(decoding: body, as: UTF8.self))
        else { return nil }
        let value: Double
        switch integer.count {
        case degreeDigits:
            value = whole
        case degreeDigits + 2:
            let degrees = (whole / 100).rounded(.down)
            let minutes = whole - degrees * 100
            guard minutes < 60 else { return nil }
            value = degrees + minutes / 60
        case degreeDigits + 4:
            let degrees = (whole / 10_000).rounded(.down)
            let minutes = ((whole - degrees * 10_000) / 100).rounded(.down)
            let seconds = whole - degrees * 10_000 - minutes * 100
            guard minutes < 60, seconds < 60 else { return nil }
            value = degrees + minutes / 60 + seconds / 3600
        default:
            return nil
        }
        return negative ? -value : value
    }
}
