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

/// `retry` and `reprocess` while a coordinator runs: it picks the tasks up without a
/// restart, although they lie behind its cursor.
@Suite(.serialized, .ownThread) struct RequeueWhileRunningTests {
    @Test func runningCoordinatorPicksUpRetriedAndReprocessedTasks() throws {
        let directory = try temporaryDirectory()
        let photos = directory.appendingPathComponent("photos")
        #expect(try PhotomillBinary.run(["samples", photos.path, "--count", "12", "--seed", "3"]).status == 0)
        // The text and empty files named .jpg fail at the scan, with no attempt (ClusterTests
        // checks them): out of the way here, where every failure is a worker's.
        for name in try FileManager.default.contentsOfDirectory(atPath: photos.path)
        where name.hasPrefix("broken_text") || name.hasPrefix("broken_empty") {
            try FileManager.default.removeItem(at: photos.appendingPathComponent(name))
        }
        let catalog = directory.appendingPathComponent("catalog.sqlite")
        let coordinator = try BackgroundProcess([
            "coordinator", "--bind", anyLoopbackPort, "--insecure", "--catalog", catalog.path,
            "--no-exports", photos.path,
        ])
        let endpoint = try coordinator.boundEndpoint()
        // 10 photos left. No worker does OCR: the 10 OCR tasks stay pending.
        let worker = try BackgroundProcess([
            "worker", "--connect", endpoint, "--insecure", "--root", photos.path, "--slots", "1",
            "--kinds", "hash,metadata,thumbnail",
        ])
        defer {
            coordinator.signal(SIGTERM)
            worker.signal(SIGTERM)
            coordinator.wait(seconds: 20)
            worker.wait(seconds: 20)
        }

        let settled = try eventually(seconds: 120) {
            try CatalogQuery.count(
                catalog,
                "SELECT COUNT(*) FROM tasks WHERE kind != 'ocr' AND state IN ('done', 'failed')"
            ) == 30
        }
        try #require(settled, "coordinator: \(coordinator.stderr)")
        let failed = try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE state = 'failed'")
        #expect(failed >= 2, "the broken samples")
        let failedAttempts = "SELECT COUNT(*) FROM attempts WHERE outcome = 'failed'"
        #expect(try CatalogQuery.count(catalog, failedAttempts) == failed)

        // The worker's last heartbeat is kept fresh in the catalog while it idles.
        let seen = {
            try CatalogQuery.rows(catalog, "SELECT lastSeen FROM workers WHERE state = 'connected'").first.flatMap {
                Double($0[0])
            } ?? 0
        }
        let firstSeen = try seen()
        #expect(try eventually(seconds: 30) { try seen() > firstSeen + 1.5 }, "lastSeen of an idle worker advances")

        let retried = try PhotomillBinary.run(["retry", "--catalog", catalog.path])
        #expect(retried.status == 0 && retried.stdout.hasPrefix("retried \(failed) failed tasks"), "\(retried.stdout)")
        // Each retried task is leased again and fails again (the files are still broken).
        let again = try eventually(seconds: 60) {
            try CatalogQuery.count(catalog, failedAttempts) == 2 * failed
                && CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE state = 'failed'") == failed
        }
        #expect(again, "coordinator: \(coordinator.stderr)")

        let metadataDone = try CatalogQuery.count(
            catalog,
            "SELECT COUNT(*) FROM tasks WHERE kind = 'metadata' AND state = 'done'"
        )
        let reprocessed = try PhotomillBinary.run([
            "reprocess", "--all", "--kind", "metadata", "--catalog", catalog.path,
        ])
        #expect(reprocessed.stdout.hasPrefix("requeued \(metadataDone) results"), "\(reprocessed.stdout)")
        #expect(
            try eventually(seconds: 60) {
                try CatalogQuery.count(
                    catalog,
                    "SELECT COUNT(*) FROM attempts WHERE kind = 'metadata' AND outcome = 'done'"
                ) == 2 * metadataDone
                    && CatalogQuery.count(
                        catalog,
                        "SELECT COUNT(*) FROM tasks WHERE kind = 'metadata' AND state = 'done'"
                    ) == metadataDone
            },
            "coordinator: \(coordinator.stderr)"
        )

        // The OCR tasks were never taken (no worker offers OCR).
        #expect(
            try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE kind = 'ocr' AND state = 'pending'") == 10
        )
        #expect(try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM requeues") == 2)
    }
}
