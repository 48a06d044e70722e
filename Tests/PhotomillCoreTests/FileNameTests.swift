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
import Testing

/// `FileName` against Foundation's NSString, the reference it replaces in the scan's walk.
@Suite("File names")
struct FileNameTests {
    @Test("extension and stem as NSString reads them, on edge cases and seeded random names")
    func asFoundation() {
        var names = [
            "IMG_0001.JPG", "IMG_0001.JPG.xmp", "README", ".hidden", ".hidden.xmp", "photo.", "a..b", "..", ".", "",
            "x.tar.gz", "Ünïcödé.HEIC", "e\u{301}.e\u{301}", "a.\u{301}b", "🙂.🙂", "name with space.jpg", "a. b",
            "trailing..",
        ]
        var random = SplitMix64(seed: 27)
        let alphabet = Array("aZ.. 9é\u{301}_-")
        for _ in 0..<2_000 {
            names.append(
                String((0..<Int(random.next() % 8)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            )
        }
        for name in names where !name.contains("/") {
            #expect(
                String(FileName.pathExtension(name)) == (name as NSString).pathExtension,
                "\(name.debugDescription)"
            )
            #expect(FileName.stem(name) == (name as NSString).deletingPathExtension, "\(name.debugDescription)")
        }
    }
}
