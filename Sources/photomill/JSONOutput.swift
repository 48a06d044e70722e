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
import PhotomillCore

/// Encodes values as JSON on one line, keys sorted: what `--json` prints (JSON Lines for
/// lists). One encoder serves a whole listing.
struct JSONLines {
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    func line<T: Encodable>(_ value: T) -> String {
        // A file name that is not UTF-8 shows its bytes as \\xNN (PathBytes).
        PathBytes.displayJSON(String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self))
    }
}

func jsonLine<T: Encodable>(_ value: T) -> String { JSONLines().line(value) }

/// Lines for a terminal: each escaped by the one rule (`PathBytes.display`: bytes that are
/// not UTF-8, control characters), then joined. Every report's `text()` ends here.
func terminalText(_ lines: [String]) -> String {
    lines.map(PathBytes.display).joined(separator: "\n")
}

/// Prints lines in one write each few thousand (a listing of 10^5 lines stays fast).
struct LineBuffer {
    private var text = ""

    mutating func append(_ line: String) {
        text += PathBytes.display(line)
        text += "\n"
        if text.utf8.count > 1 << 20 { flush() }
    }

    mutating func flush() {
        FileHandle.standardOutput.write(Data(text.utf8))
        text = ""
    }
}

/// A time as ISO 8601 UTC, as every report prints times.
func isoTime(_ seconds: Double) -> String {
    Date(timeIntervalSince1970: seconds).formatted(.iso8601)
}
