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

import ArgumentParser
import PhotomillCore

/// Flags that shape processing, shared by every command that processes photos.
struct ProcessingFlags: ParsableArguments {
    @Option(name: .customLong("kinds"), help: "Comma-separated kinds: \(Kind.names).")
    var kindList: String = Kind.allCases.map(\.rawValue).joined(separator: ",")

    @Option(help: "Longest side of thumbnails in pixels (never upscaled).")
    var thumbnailSize: Int = ProcessingParameters().thumbnailSize

    @Option(help: "Tesseract language(s) for OCR, e.g. eng or eng+deu.")
    var ocrLanguage: String = ProcessingParameters().ocrLanguage

    @Option(
        help: ArgumentHelp(
            "Keep OCR readings with a lower mean word confidence (1-100) as \"no text\".",
            valueName: "N"
        )
    )
    var ocrMinConfidence: Int = ProcessingParameters().ocrMinConfidence

    @Option(help: "Refuse to decode images with more megapixels than this.")
    var maxMegapixels: Int = ProcessingParameters().pixelLimit / 1_000_000

    var kinds: Set<Kind> { (try? Kind.parseList(kindList).get()) ?? Set(Kind.allCases) }

    var parameters: ProcessingParameters {
        var parameters = ProcessingParameters()
        parameters.thumbnailSize = thumbnailSize
        parameters.ocrLanguage = ocrLanguage
        parameters.pixelLimit = maxMegapixels * 1_000_000
        parameters.ocrMinConfidence = ocrMinConfidence
        return parameters
    }

    func validate() throws {
        if case .failure(let error) = Kind.parseList(kindList) {
            throw ValidationError("--kinds: \(error)")
        }
        guard (16...4096).contains(thumbnailSize) else {
            throw ValidationError("--thumbnail-size must be between 16 and 4096 pixels, not \(thumbnailSize)")
        }
        guard (1...100).contains(ocrMinConfidence) else {
            throw ValidationError("--ocr-min-confidence must be between 1 and 100, not \(ocrMinConfidence)")
        }
        guard maxMegapixels > 0 else { throw ValidationError("--max-megapixels must be positive") }
        guard !ocrLanguage.isEmpty, ocrLanguage.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "_" })
        else {
            throw ValidationError("--ocr-language must look like 'eng' or 'eng+deu', not '\(ocrLanguage)'")
        }
    }
}
