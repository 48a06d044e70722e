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

import CTesseract
import Foundation
import PhotomillCore

/// One tesseract LSTM engine, used by one thread at a time and reused across photos
/// (initialising an engine costs ~100 ms; recognising a page, ~300 ms and up).
///
/// Orientation: tesseract's default page segmentation reads upright and 90°-turned
/// pages but turns 180° and 270° pages into garbage, and running orientation detection
/// (OSD) on every page triples the time. So recognition runs once as is; only when the
/// result is poor (low mean confidence) is OSD run, on a reduced copy of the page with
/// the small legacy OSD model, and the page recognised again turned upright. The better
/// of the two readings wins. Upright pages pay nothing extra. See docs/processing.md.
final class TextRecognizer {
    let language: String
    private let engine: OpaquePointer
    private var orientationEngine: OpaquePointer?

    /// Mean confidence under which a reading is suspected to be of a turned page.
    static let suspiciousConfidence = 60.0
    /// Orientation detection reads this many pixels on the long side at most.
    static let orientationSide = 1200

    init(language: String) throws(ProcessingError) {
        guard let engine = TessBaseAPICreate() else {
            throw ProcessingError(.ocrFailed, "tesseract could not create an engine")
        }
        // Keep tesseract's diagnostics ("Estimating resolution…") off our stderr.
        _ = TessBaseAPISetVariable(engine, "debug_file", "/dev/null")
        guard TessBaseAPIInit2(engine, nil, language, OEM_LSTM_ONLY) == 0 else {
            TessBaseAPIDelete(engine)
            throw ProcessingError(
                .ocrFailed,
                "tesseract has no trained data for language '\(language)' (install tesseract-ocr-\(language))"
            )
        }
        TessBaseAPISetPageSegMode(engine, PSM_AUTO)
        self.engine = engine
        self.language = language
    }

    deinit {
        TessBaseAPIEnd(engine)
        TessBaseAPIDelete(engine)
        if let orientationEngine {
            TessBaseAPIEnd(orientationEngine)
            TessBaseAPIDelete(orientationEngine)
        }
    }

    func recognize(_ image: GreyImage) -> RecognizedText {
        let first = read(image, rotation: 0)
        guard first.confidence < Self.suspiciousConfidence,
            let turn = uprightRotation(of: image), turn != 0
        else { return first }
        let second = read(image.rotated(clockwise: turn), rotation: turn)
        return second.confidence > first.confidence ? second : first
    }

    private func read(_ image: GreyImage, rotation: Int) -> RecognizedText {
        image.pixels.withUnsafeBufferPointer {
            TessBaseAPISetImage(engine, $0.baseAddress, Int32(image.width), Int32(image.height), 1, Int32(image.width))
        }
        // Photos carry no trustworthy DPI; 300 is what tesseract's models were trained at.
        TessBaseAPISetSourceResolution(engine, 300)
        var text = ""
        if let utf8 = TessBaseAPIGetUTF8Text(engine) {
            text = String(cString: utf8)
            TessDeleteText(utf8)
        }
        let confidence = Double(max(0, TessBaseAPIMeanTextConf(engine)))
        TessBaseAPIClear(engine)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return RecognizedText(
            text: trimmed,
            confidence: trimmed.isEmpty ? 0 : confidence,
            language: language,
            rotation: rotation
        )
    }

    /// Clockwise degrees that turn the page upright, when OSD is confident; nil otherwise.
    private func uprightRotation(of image: GreyImage) -> Int? {
        guard let osd = orientationEngineIfAvailable() else { return nil }
        let factor = max(1, max(image.width, image.height) / Self.orientationSide)
        let small = image.reduced(by: factor)
        small.pixels.withUnsafeBufferPointer {
            TessBaseAPISetImage(osd, $0.baseAddress, Int32(small.width), Int32(small.height), 1, Int32(small.width))
        }
        TessBaseAPISetSourceResolution(osd, Int32(300 / factor))
        defer { TessBaseAPIClear(osd) }
        var degrees: Int32 = 0
        var confidence: Float = 0
        // Points into the engine's character set: not ours to free, whatever capi.h says.
        var script: UnsafePointer<CChar>?
        var scriptConfidence: Float = 0
        guard TessBaseAPIDetectOrientationScript(osd, &degrees, &confidence, &script, &scriptConfidence) != 0 else {
            return nil
        }
        // OSD reports how the page is turned; undoing it is the opposite turn.
        guard confidence >= 1 else { return nil }
        return (360 - Int(degrees)) % 360
    }

    private func orientationEngineIfAvailable() -> OpaquePointer? {
        if let orientationEngine { return orientationEngine }
        guard let osd = TessBaseAPICreate() else { return nil }
        _ = TessBaseAPISetVariable(osd, "debug_file", "/dev/null")
        guard TessBaseAPIInit2(osd, nil, "osd", OEM_TESSERACT_ONLY) == 0 else {
            TessBaseAPIDelete(osd)
            return nil
        }
        TessBaseAPISetPageSegMode(osd, PSM_OSD_ONLY)
        orientationEngine = osd
        return osd
    }
}
