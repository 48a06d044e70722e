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

/// Every kind of bad input fails its own kinds with a class and a message naming the file,
/// and leaves the kinds that can still succeed alone.
@Suite struct BadInputTests {
    let directory: URL
    init() throws { directory = try temporaryDirectory() }

    private func write(_ name: String, _ data: Data) throws -> String {
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    @Test func zeroByteFile() throws {
        let path = try write("empty.jpg", Data())
        let result = PhotoProcessor().process(path: path, kinds: Set(Kind.allCases))
        #expect(result.hashes?.md5 == "d41d8cd98f00b204e9800998ecf8427e")
        for kind in [Kind.metadata, .thumbnail, .ocr] {
            #expect(result.errors[kind]?.errorClass == .notAnImage)
            #expect(result.errors[kind]?.message.contains(path) == true)
        }
        #expect(result.errors[.hash] == nil)
    }

    @Test func textFileNamedJPEG() throws {
        let path = try write("notes.jpg", Data("shopping list\nmilk, eggs\n".utf8))
        let result = PhotoProcessor().process(path: path, kinds: [.metadata, .thumbnail])
        #expect(result.errors[.metadata]?.errorClass == .notAnImage)
        #expect(result.errors[.thumbnail]?.errorClass == .notAnImage)
    }

    @Test func missingFileIsUnreadable() {
        let path = directory.appendingPathComponent("gone.jpg").path
        let result = PhotoProcessor().process(path: path, kinds: [.hash, .metadata])
        #expect(result.errors[.hash]?.errorClass == .unreadable)
        #expect(result.errors[.metadata]?.errorClass == .unreadable)
        #expect(result.errors[.hash]?.message.contains(path) == true)
    }

    @Test func truncatedJPEGFailsThumbnailButKeepsMetadata() throws {
        // A JPEG written by the vips command, cut to 40 % of its bytes.
        let full = directory.appendingPathComponent("full.jpg").path
        #expect(try Tool.run("vips", ["gaussnoise", full + "[Q=90]", "800", "600"]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: full))
        let path = try write("cut.jpg", bytes.prefix(bytes.count * 4 / 10))

        let result = PhotoProcessor().process(path: path, kinds: [.metadata, .thumbnail])
        #expect(result.errors[.thumbnail]?.errorClass == .corrupt)
        #expect(result.thumbnail == nil)
        #expect(result.metadata?.pixelWidth == 800)
        #expect(result.metadata?.pixelHeight == 600)
    }

    @Test func hugeDimensionsAreRefusedBeforeDecoding() throws {
        let path = try write("bomb.png", Fixtures.pngHeaderOnly(width: 50_000, height: 50_000))
        let start = Stopwatch()
        let result = PhotoProcessor().process(path: path, kinds: Set(Kind.allCases))
        #expect(result.errors[.thumbnail]?.errorClass == .tooLarge)
        #expect(result.errors[.ocr]?.errorClass == .tooLarge)
        #expect(result.errors[.thumbnail]?.message.contains("2500 megapixels") == true)
        // Metadata only reads the header, so it still reports the claimed size.
        #expect(result.metadata?.pixelWidth == 50_000)
        #expect(result.errors[.metadata] == nil)
        // Decoding 2.5 gigapixels would take minutes; refusing takes no time at all.
        #expect(start.seconds < 5)
    }

    @Test func pixelLimitIsConfigurable() throws {
        let path = directory.appendingPathComponent("two-mp.png").path
        #expect(try Tool.run("vips", ["black", path, "2000", "1000"]).status == 0)
        var options = ProcessingParameters()
        options.pixelLimit = 1_999_999
        let refused = PhotoProcessor(parameters: options).process(path: path, kinds: [.thumbnail])
        #expect(refused.errors[.thumbnail]?.errorClass == .tooLarge)
        options.pixelLimit = 2_000_000
        let accepted = PhotoProcessor(parameters: options).process(path: path, kinds: [.thumbnail])
        #expect(accepted.thumbnail?.width == 256)
        #expect(accepted.thumbnail?.height == 128)
    }
}
