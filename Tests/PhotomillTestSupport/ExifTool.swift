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

/// exiftool, the project's independent reference for metadata (scripts/install-deps.sh).
public enum ExifTool {
    public static var isAvailable: Bool { Tool.isAvailable("exiftool") }

    /// exiftool's reading of `file` as one JSON object (`-j`), numbers as numbers (`-n`):
    /// the given `tags` (every tag when none), after `options` (`-api QuickTimeUTC=0`, `-G1`…).
    public static func values(_ file: String, _ tags: [String] = [], options: [String] = []) throws -> [String: Any] {
        let output = try Tool.output("exiftool", ["-j", "-n"] + options + tags.map { "-" + $0 } + [file])
        guard let object = (try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])?.first else {
            throw ToolFailure("exiftool -j \(file): no object in \(output)")
        }
        return object
    }

    /// One tag's value as exiftool prints it alone (`-s3`), numbers as numbers unless
    /// `printed`; trimmed; empty when the file has no such tag.
    public static func value(_ tag: String, of file: String, printed: Bool = false) throws -> String {
        try Tool.value("exiftool", ["-s3"] + (printed ? [] : ["-n"]) + ["-" + tag, file])
    }

    /// exiftool with `arguments` as given: its standard output (a non-zero exit throws).
    @discardableResult
    public static func run(_ arguments: [String]) throws -> String {
        try Tool.output("exiftool", arguments)
    }
}
