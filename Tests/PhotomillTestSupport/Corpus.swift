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
import Testing

/// ../shared/corpus beside the checkout, found from this source file's location (absent
/// in a user's fresh clone: the tests that need it skip with `skipMessage`).
public enum Corpus {
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// The RAW, HEIC and video files, described by manifest-formats.json.
    public static let formats = root.appendingPathComponent("formats")

    /// Both manifests are there: the photos of manifest.json and the files of
    /// manifest-formats.json.
    public static var isAvailable: Bool { exists("manifest.json") && exists("manifest-formats.json") }

    public static let skipMessage: Comment = "../shared/corpus is absent (a fresh clone): corpus tests skipped"

    private static func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path)
    }
}
