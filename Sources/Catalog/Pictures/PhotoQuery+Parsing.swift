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

// What `search` and the dashboard's Library page accept, checked once for both.
extension PhotoQuery {
    /// A criterion that is not what it should be; the message names it and says what to give.
    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
        public init(message: String) { self.message = message }
    }

    /// `text` is YYYY-MM-DD, optionally followed by THH:MM or THH:MM:SS, and a real date.
    /// `name` is how the asker spells the criterion (`--from`, `from`).
    public static func checkDate(_ text: String, name: String) throws(Invalid) {
        let formats = [10: "yyyy-MM-dd", 16: "yyyy-MM-dd'T'HH:mm", 19: "yyyy-MM-dd'T'HH:mm:ss"]
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = formats[text.count] ?? ""
        guard formats[text.count] != nil, let date = formatter.date(from: text), formatter.string(from: date) == text
        else {
            throw Invalid(message: "\(name) '\(text)' is not a date: use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS")
        }
    }

    /// `LAT,LON,KM` in decimal degrees and kilometres.
    public static func parseNear(
        _ text: String,
        name: String
    ) throws(Invalid) -> (latitude: Double, longitude: Double, kilometres: Double) {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 3, let latitude = parts[0], let longitude = parts[1], let kilometres = parts[2] else {
            throw Invalid(
                message: "\(name) '\(text)' must be LAT,LON,KM in decimal degrees and kilometres, e.g. -33.86,151.21,5"
            )
        }
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw Invalid(
                message: "\(name): latitude must be within ±90 and longitude within ±180, not \(latitude),\(longitude)"
            )
        }
        guard kilometres > 0 && kilometres <= 20_100 else {
            throw Invalid(message: "\(name): the distance must be more than 0 and at most 20100 km, not \(kilometres)")
        }
        return (latitude, longitude, kilometres)
    }
}
