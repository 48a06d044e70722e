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

/// The text form of a frame set used in `Regressions/*.frames` and in the fuzz log: one
/// frame per line in hex, `-` for an empty frame, `#` starts a comment line. Text, so a
/// regression input can be read and reviewed in a diff.
enum FramesFile {
    static func format(_ frames: [Data]) -> String {
        frames.map { frame in frame.isEmpty ? "-" : frame.map { String(format: "%02x", $0) }.joined() }
            .joined(separator: "\n") + "\n"
    }

    /// nil when a line is not hex.
    static func parse(_ text: String) -> [Data]? {
        var frames: [Data] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = line.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line == "-" {
                frames.append(Data())
                continue
            }
            guard line.count.isMultiple(of: 2) else { return nil }
            var frame = Data(capacity: line.count / 2)
            var digits = line.makeIterator()
            while let high = digits.next(), let low = digits.next() {
                guard let byte = UInt8(String([high, low]), radix: 16) else { return nil }
                frame.append(byte)
            }
            frames.append(frame)
        }
        return frames
    }
}
