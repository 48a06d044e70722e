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

/// A value of the corpus manifests' `exiftool` objects (exiftool's -n output): a number, or
/// text (a list, as keywords are, joined with ", ").
public enum ExiftoolValue: Decodable, CustomStringConvertible, Sendable {
    case number(Double)
    case text(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let list = try? container.decode([String].self) {
            self = .text(list.joined(separator: ", "))
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    public var description: String {
        switch self {
        case .number(let value): "\(value)"
        case .text(let value): value
        }
    }

    /// Whether photomill's value of exiftool's `field` agrees with this one: GPS within
    /// 1e-5°, other numbers within 0.5 %, dates to the second, text exactly. exiftool says
    /// Orientation 1 for a file with no orientation tag, which photomill leaves absent.
    public func agrees(_ field: String, ours: Any?) -> Bool {
        switch self {
        case .text(let expected):
            guard let ours = ours as? String else { return false }
            if field == "DateTimeOriginal" {
                let date = expected.prefix(10).replacingOccurrences(of: ":", with: "-")
                return ours.prefix(19) == (date + "T" + expected.dropFirst(11)).prefix(19)
            }
            return ours == expected.trimmingCharacters(in: .whitespaces)
        case .number(let expected):
            if field == "Orientation" && expected == 1 && ours == nil { return true }
            guard let number = (ours as? Int).map(Double.init) ?? (ours as? Double) ?? (ours as? NSNumber)?.doubleValue
            else { return false }
            if field.hasPrefix("GPS") { return abs(number - expected) <= 1e-5 }
            return abs(number - expected) <= abs(expected) * 0.005
        }
    }
}

/// Counts photomill's values that agree with exiftool's and lists the ones that differ.
public struct ExiftoolTally: Sendable {
    public private(set) var compared = 0, agreed = 0
    public private(set) var misses: [String] = []

    public init() {}

    public mutating func compare(_ file: String, _ field: String, _ expected: ExiftoolValue, _ ours: Any?) {
        compared += 1
        if expected.agrees(field, ours: ours) {
            agreed += 1
        } else {
            misses.append("\(file) \(field): exiftool \(expected), ours \(ours.map { "\($0)" } ?? "absent")")
        }
    }

    public var rate: Double { compared == 0 ? 0 : Double(agreed) / Double(compared) }
    /// "agreed/compared agree (rate %); differing: …"
    public var summary: String {
        "\(agreed)/\(compared) agree (\(String(format: "%.1f", rate * 100)) %); differing: \(misses)"
    }
}
