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
import PhotomillTestSupport

extension Tool {
    /// Mean absolute difference per sample of two images of the same size, by the vips
    /// command (`subtract`, `abs`, `avg`): 0 for identical pictures, tens for different ones.
    static func meanDifference(_ a: String, _ b: String, in directory: URL) throws -> Double {
        let difference = directory.appendingPathComponent("difference-\(UUID().uuidString).v").path
        let absolute = directory.appendingPathComponent("absolute-\(UUID().uuidString).v").path
        try output("vips", ["subtract", a, b, difference])
        try output("vips", ["abs", difference, absolute])
        return Double(try value("vips", ["avg", absolute])) ?? .infinity
    }
}

/// The error classes a processing failure may carry (docs/operations.md).
let processingErrorClasses: Set<String> = [
    "unreadable", "not-an-image", "unsupported-format", "too-large", "corrupt", "ocr-failed", "timeout",
]
