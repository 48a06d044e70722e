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
import PhotomillTestSupport
import Testing

@testable import PhotoProcessing

@Suite struct TextRecognizerTests {
    static let paragraph = """
        Photographs keep the light of a moment long after the moment has passed. \
        An archive of a million pictures is only useful when every picture can be found again, \
        by the day it was taken, the camera that took it, the place it shows, or the words printed in it.
        """

    /// Tesseract splits lines where the renderer wrapped them; compare words, not layout.
    private func normalised(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test(arguments: [nil, "d90", "d180", "d270"])
    func paragraphIsReadInEveryOrientation(rotation: String?) throws {
        let directory = try temporaryDirectory()
        let page = try Fixtures.textPage(Self.paragraph, rotate: rotation, in: directory)
        let result = PhotoProcessor().process(path: page.path, kinds: [.ocr])
        let text = try #require(result.text)
        let rate = characterErrorRate(normalised(text.text), reference: normalised(Self.paragraph))
        #expect(rate <= 0.02, "CER \(rate) for rotation \(rotation ?? "none"): \(text.text)")
        #expect(text.confidence > 80)
        #expect(text.language == "eng")
    }

    @Test func photoWithoutTextGivesEmptyText() throws {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("sky.jpg").path
        // A smooth gradient: nothing that looks like a glyph.
        #expect(try Tool.run("vips", ["xyz", directory.appendingPathComponent("xy.v").path, "600", "400"]).status == 0)
        #expect(
            try Tool.run(
                "vips",
                [
                    "extract_band", directory.appendingPathComponent("xy.v").path,
                    directory.appendingPathComponent("x.v").path, "0",
                ]
            ).status == 0
        )
        #expect(
            try Tool.run("vips", ["cast", directory.appendingPathComponent("x.v").path, path, "uchar"]).status == 0
        )
        let result = PhotoProcessor().process(path: path, kinds: [.ocr])
        #expect(result.errors.isEmpty)
        #expect(result.text?.text.isEmpty == true)
    }

    @Test func unknownLanguageFailsWithAHint() throws {
        let directory = try temporaryDirectory()
        let page = try Fixtures.textPage("Hello", in: directory)
        var options = ProcessingParameters()
        options.ocrLanguage = "xyz"
        let result = PhotoProcessor(parameters: options).process(path: page.path, kinds: [.ocr])
        #expect(result.errors[.ocr]?.errorClass == .ocrFailed)
        #expect(result.errors[.ocr]?.message.contains("tesseract-ocr-xyz") == true)
    }
}
