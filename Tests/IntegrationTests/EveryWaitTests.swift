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

/// Every wait has a reason (docs/reliability.md, "Accidents"): `run --kinds` ends when its
/// kinds are done though a changed file queued the others again, and a file too large to
/// send as bytes waits visibly, with its size and the limit, instead of for ever in silence.
@Suite(.ownThread) struct EveryWaitTests {
    @Test func runWithKindsEndsWhenItsKindsAreDoneAfterAFileChanged() throws {
        let bench = try FaultBench(count: 6, seed: 81)
        let common = ["--catalog", bench.catalog.path, "--no-exports", "--workers", "1"]
        let first = try PhotomillBinary.run(["run", bench.photos.path, "--kinds", "hash,metadata,thumbnail"] + common)
        #expect([0, 1].contains(first.status), "\(first.stderr)")
        // A changed file: its results are dropped and all its kinds queued again.
        let changed = bench.goodFile(0)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: changed))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0, 0, 0, 0]))
        try handle.close()

        let second = try BackgroundProcess(["run", bench.photos.path, "--kinds", "hash"] + common)
        let status = second.wait(seconds: 60)
        #expect(
            status == 0 || status == 1,
            "ends once its hashes are done (not 130, not never): \(String(describing: status)) \(second.stderr)"
        )
        let states = try CatalogQuery.rows(
            bench.catalog,
            """
            SELECT t.kind, t.state FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path = '\(changed)' ORDER BY t.kind
            """
        ).map { "\($0[0]) \($0[1])" }
        #expect(states == ["hash done", "metadata pending", "thumbnail pending"], "\(states)")
        let text = try PhotomillBinary.run(["status", "--catalog", bench.catalog.path]).stdout
        #expect(
            text.contains("waiting: 1 metadata tasks: not asked for (--kinds hash); a run without --kinds does them"),
            "\(text)"
        )
        #expect(text.contains("waiting: 1 thumbnail tasks: not asked for (--kinds hash)"), "\(text)")
    }

    @Test func aFileTooLargeForBytesWaitsWithItsReason() throws {
        let directory = try temporaryDirectory()
        let photos = directory.appendingPathComponent("photos")
        _ = try PhotomillBinary.run(["samples", photos.path, "--count", "1", "--seed", "82", "--photo-size", "64x48"])
        // 800 MiB, sparse: a JPEG by its first bytes (SOI, APP0 "JFIF"), nothing on disk.
        let huge = photos.appendingPathComponent("huge.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00]).write(to: huge)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 800 << 20)
        try handle.close()
        let cluster = try BytesFedCluster(directory: directory, photos: photos)
        let catalog = cluster.catalog
        let others =
            "SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path != '\(huge.path)' AND t.state = 'pending'"
        #expect(
            eventually(seconds: 60) {
                (try? CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks")) ?? 0 > 1
                    && (try? CatalogQuery.count(catalog, others)) == 0
            },
            "\(cluster.coordinator.stderr)"
        )
        // The limit by hand: 16 frames, 3 fixed, one more for a sidecar, 64 MiB each (PROTOCOL.md).
        let text = try PhotomillBinary.run(["status", "--catalog", catalog.path]).stdout
        #expect(
            text.contains(
                "waiting: 1 hash tasks: 1 too large for byte transfer (up to 800 MiB > 768 MiB), only a worker that reads their folder (--root) can take them"
            ),
            "\(text)"
        )
        let json =
            try JSONSerialization.jsonObject(
                with: Data(try PhotomillBinary.run(["status", "--json", "--catalog", catalog.path]).stdout.utf8)
            ) as? [String: Any]
        #expect(
            (json?["waiting"] as? [String: String])?["hash"]?.contains("too large for byte transfer") == true,
            "\(String(describing: json))"
        )
    }
}
