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

/// The parameters that shape results: set by the coordinator, sent with each JOB, used by
/// the processors. Everything here is part of a result's recipe.
public struct ProcessingParameters: Sendable, Hashable, Codable {
    /// Longest side of a thumbnail in pixels; smaller images are never upscaled.
    public var thumbnailSize: Int = 256
    public var thumbnailQuality: Int = 80
    /// Tesseract language(s), e.g. "eng" or "eng+deu".
    public var ocrLanguage: String = "eng"
    /// Longest side the page is reduced to before OCR.
    public var ocrMaxSide: Int = 4096
    /// Mean word confidence (tesseract's 0…100) under which an OCR reading is junk, not
    /// text: it is kept as "no text" with its confidence (docs/processing.md, "OCR").
    public var ocrMinConfidence: Int = 80
    /// Images with more pixels are refused (`too-large`) before any decoding.
    public var pixelLimit: Int = 200_000_000

    public init() {}
}

extension ProcessingParameters {
    /// The recipe of a result: the kind, its code version (`KindDescriptor.codeVersion`) and
    /// the parameters that shape it (`KindDescriptor.recipeParameters`).
    /// `reprocess --outdated` requeues results whose recipe differs from the current one.
    public func recipe(for kind: Kind) -> String {
        let descriptor = kind.descriptor
        let parameters = descriptor.recipeParameters(self)
        return "\(kind.rawValue)/\(descriptor.codeVersion)" + (parameters.isEmpty ? "" : " " + parameters)
    }

    /// The recipe of every kind.
    public var recipes: [Kind: String] {
        Dictionary(uniqueKeysWithValues: Kind.allCases.map { ($0, recipe(for: $0)) })
    }
}
