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

/// Text recognised in a photo.
public struct RecognizedText: Sendable, Hashable, Codable {
    public let text: String
    /// Tesseract's mean word confidence, 0…100.
    public let confidence: Double
    /// The tesseract language(s) used, e.g. "eng" or "eng+deu".
    public let language: String
    /// Clockwise degrees the page was turned before recognition (0, 90, 180, 270).
    public let rotation: Int

    public init(text: String, confidence: Double, language: String, rotation: Int = 0) {
        self.text = text
        self.confidence = confidence
        self.language = language
        self.rotation = rotation
    }

    /// No text (with this reading's confidence) when the confidence is under `floor`.
    public func floored(at floor: Double) -> RecognizedText {
        confidence < floor
            ? RecognizedText(text: "", confidence: confidence, language: language, rotation: rotation) : self
    }
}
