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

import PhotomillCore

// The protocol edge of `ProcessingParameters`, the JOB's `parameters`.

extension Photomill_V1_ProcessingParameters {
    public init(_ p: ProcessingParameters) {
        self.init()
        thumbnailSize = UInt32(p.thumbnailSize)
        thumbnailQuality = UInt32(p.thumbnailQuality)
        ocrLanguage = p.ocrLanguage
        ocrMaxSide = UInt32(p.ocrMaxSide)
        pixelLimit = UInt64(p.pixelLimit)
        ocrMinConfidence = UInt32(p.ocrMinConfidence)
    }
}

extension ProcessingParameters {
    /// The parameters a JOB carries; a field left at zero (a coordinator of an older
    /// revision) keeps its default.
    public init(_ wire: Photomill_V1_ProcessingParameters) {
        self.init()
        if wire.thumbnailSize > 0 { thumbnailSize = Int(wire.thumbnailSize) }
        if wire.thumbnailQuality > 0 { thumbnailQuality = Int(wire.thumbnailQuality) }
        if !wire.ocrLanguage.isEmpty { ocrLanguage = wire.ocrLanguage }
        if wire.ocrMaxSide > 0 { ocrMaxSide = Int(wire.ocrMaxSide) }
        if wire.pixelLimit > 0 { pixelLimit = Int(clamping: wire.pixelLimit) }
        if wire.ocrMinConfidence > 0 { ocrMinConfidence = Int(wire.ocrMinConfidence) }
    }
}

extension String {
    /// At most `bytes` bytes of UTF-8, cut at a character boundary: how a sender keeps a
    /// text (an error message, OCR text) inside its field's bound.
    public func truncated(toUTF8Bytes bytes: Int) -> String {
        guard utf8.count > bytes else { return self }
        var end = startIndex
        var count = 0
        for character in self {
            let size = character.utf8.count
            if count + size > bytes { break }
            count += size
            end = index(after: end)
        }
        return String(self[..<end])
    }
}
