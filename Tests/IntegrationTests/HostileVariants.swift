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

/// Seeded hostile variants of real files, and the check that `photomill inspect` gives each
/// a result or a classified error: what the hostile-file tests and `scripts/fuzz.sh`'s media
/// run (`scripts/fuzz-media.py`, the same mutations in Python) share.
enum HostileVariants {
    /// `count` variants of `bytes`: the first half with 1–40 bit flips, most in the first
    /// 64 KiB where the structures are; the rest cut at a random length.
    static func make(_ bytes: [UInt8], count: Int, generator: inout SplitMix64) -> [[UInt8]] {
        (0..<count).map { index in
            var copy = bytes
            guard !copy.isEmpty else { return copy }
            if index < count / 2 {
                for _ in 0...Int(generator.next() % 40) {
                    let span = generator.next() % 4 == 0 ? copy.count : min(copy.count, 65_536)
                    let offset = Int(generator.next() % UInt64(span))
                    copy[offset] ^= UInt8(1 << (generator.next() % 8))
                }
            } else {
                copy = Array(copy.prefix(Int(generator.next() % UInt64(copy.count))))
            }
            return copy
        }
    }

    /// Writes `count` variants of each file into `directory` as STEM-N.EXT; their names.
    static func write(_ files: [URL], count: Int, seed: UInt64, into directory: URL) throws -> [String] {
        var generator = SplitMix64(seed: seed)
        var names: [String] = []
        for file in files {
            let stem = file.deletingPathExtension().lastPathComponent
            let ext = file.pathExtension
            for (index, variant) in make([UInt8](try Data(contentsOf: file)), count: count, generator: &generator)
                .enumerated()
            {
                let name = "\(stem)-\(index).\(ext)"
                try Data(variant).write(to: directory.appendingPathComponent(name))
                names.append(name)
            }
        }
        return names
    }

    /// Every kind of every variant through one `inspect` process (a crash would end it):
    /// one line per variant, each failure of a known class with a message.
    static func inspect(_ names: [String], in directory: URL) throws {
        let outcome = try PhotomillBinary.run(
            ["inspect", "--json", "--kinds", "hash,metadata,thumbnail,ocr"] + names,
            in: directory
        )
        #expect(
            outcome.status == 0 || outcome.status == 1,
            "inspect exited \(outcome.status): \(outcome.stderr.suffix(2000))"
        )
        let objects = try PhotomillBinary.jsonLines(outcome)
        #expect(
            objects.count == names.count,
            "inspect ended early (status \(outcome.status)): \(outcome.stderr.suffix(2000))"
        )
        for object in objects {
            let errors = object["errors"] as? [String: [String: String]] ?? [:]
            for (kind, failure) in errors {
                #expect(
                    processingErrorClasses.contains(failure["class"] ?? ""),
                    "\(object["path"] ?? "") \(kind): \(failure)"
                )
                #expect(failure["message"]?.isEmpty == false)
            }
        }
    }
}
