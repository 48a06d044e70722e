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

@Suite struct HashTests {
    @Test func knownVectors() {
        // RFC 1321 and FIPS 180-2 test vectors for "abc".
        let hashes = Array("abc".utf8).withUnsafeBytes { ContentHashes(of: $0) }
        #expect(hashes.md5 == "900150983cd24fb0d6963f7d28e17f72")
        #expect(hashes.sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func fileHashesAgreeWithCoreutils() throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("random.bin")
        var generator = SystemRandomNumberGenerator()
        try Data((0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: file)

        let result = PhotoProcessor().process(path: file.path, kinds: [.hash])
        let md5 = try Tool.run("md5sum", [file.path]).stdout.split(separator: " ").first.map(String.init)
        let sha = try Tool.run("sha256sum", [file.path]).stdout.split(separator: " ").first.map(String.init)
        #expect(result.hashes?.md5 == md5)
        #expect(result.hashes?.sha256 == sha)
        #expect(result.fileSize == 300_000)
        #expect(result.errors.isEmpty)
    }
}
