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
import Testing

/// Seeded bit flips and truncations of every file in formats2 (what phones, cameras and
/// other tools write: HIF, JPEG XL, AVIF, WebP, CRW, MRW, X3F, MTS, GoPro MP4, 3GP, AVI,
/// WebM, MOV…): each a result or a classified error, all kinds, one `inspect` process.
/// The long run of the same mutations is `scripts/fuzz.sh`'s media part.
@Suite(
    .ownThread,
    .enabled(if: Corpus.isAvailable, Corpus.skipMessage)
)
struct HostileVariantsTests {
    @Test func formats2VariantsAreResultsOrClassifiedErrors() throws {
        let formats2 = Corpus.root.appendingPathComponent("formats2")
        try #require(FileManager.default.fileExists(atPath: formats2.path), "formats2 is absent")
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try FileManager.default.contentsOfDirectory(atPath: formats2.path)
            .filter { !$0.hasSuffix(".xmp") }.sorted().map { formats2.appendingPathComponent($0) }
        try HostileVariants.inspect(
            try HostileVariants.write(files, count: 4, seed: 20_261_126, into: directory),
            in: directory
        )
    }
}
