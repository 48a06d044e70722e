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

/// The cluster as users run it: the built binary as separate processes over real
/// sockets, against a real SQLite catalog, on photos the project generates.
@Suite(.serialized, .ownThread) struct ClusterTests {
    /// `run` with two worker processes over ipc: every good sample has every kind done,
    /// the broken ones fail with a class and a message, and the exports agree with
    /// samples.json; a second run over the unchanged tree queues and dispatches nothing.
    @Test func runProcessesSamplesAndRerunDoesNothing() throws {
        let directory = try temporaryDirectory()
        let photos = directory.appendingPathComponent("photos")
        #expect(try PhotomillBinary.run(["samples", photos.path, "--count", "14", "--seed", "5"]).status == 0)
        let catalog = directory.appendingPathComponent("catalog.sqlite")
        let exports = directory.appendingPathComponent("exports")

        let first = try PhotomillBinary.run([
            "run", photos.path, "--workers", "2", "--catalog", catalog.path,
            "--exports", exports.path,
        ])
        #expect(first.status == 1, "broken samples fail, so the run reports failures: \(first.stdout) \(first.stderr)")
        // samples.json: 14 files, of which a text file and an empty file named .jpg fail by name…
        #expect(first.stdout.contains("12 new"), "\(first.stdout)")
        #expect(first.stdout.contains("named as photos but empty or not media: 2 files"), "\(first.stdout)")
        // …and samples.json is skipped.
        #expect(first.stdout.contains("skipped: 1 file"), "\(first.stdout)")

        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: photos.appendingPathComponent("samples.json"))
            ) as? [String: Any]
        )
        let specs = try #require(manifest["files"] as? [[String: Any]])
        for spec in specs {
            let file = photos.appendingPathComponent(spec["file"] as! String).path
            let states = try CatalogQuery.rows(
                catalog,
                "SELECT t.kind, t.state, t.errorClass, t.errorMessage FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path = '\(file)' ORDER BY t.kind"
            )
            if let scanFails = spec["scanFails"] as? String {
                // Failed by the scan, every kind, with the class samples.json names and the file in the message.
                #expect(
                    states.count == Kind.allCases.count
                        && states.allSatisfy { $0[1] == "failed" && $0[2] == scanFails && $0[3].contains(file) },
                    "\(file): \(states)"
                )
                continue
            }
            #expect(states.count == Kind.allCases.count, "\(file): every kind")
            if spec["broken"] == nil {
                #expect(states.allSatisfy { $0[1] == "done" }, "\(file): \(states)")
            } else {
                let failed = states.filter { $0[1] == "failed" }
                #expect(!failed.isEmpty, "\(file): \(states)")
                #expect(failed.allSatisfy { !$0[2].isEmpty && $0[3].contains(file) }, "\(file): \(failed)")
            }
        }
        #expect(try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE state IN ('pending', 'leased')") == 0)
        // Exactly one successful attempt per done task.
        #expect(
            try CatalogQuery.count(
                catalog,
                "SELECT COUNT(*) FROM (SELECT photoId, kind FROM attempts WHERE outcome = 'done' GROUP BY photoId, kind HAVING COUNT(*) > 1)"
            ) == 0
        )

        // The plist of each good photo holds what was written into the file.
        for spec in specs where spec["broken"] == nil && spec["text"] == nil {
            let file = photos.appendingPathComponent(spec["file"] as! String).path
            let md5 = try #require(
                try CatalogQuery.rows(catalog, "SELECT md5 FROM photos WHERE path = '\(file)'").first?.first
            )
            let plist = try Data(contentsOf: exports.appendingPathComponent("metadata/\(md5).plist"))
            let values = try #require(
                try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any]
            )
            let exif = spec["exif"] as? [String: Any] ?? [:]
            #expect(values["cameraModel"] as? String == exif["model"] as? String, "\(file)")
            #expect(values["pixelWidth"] as? Int == spec["width"] as? Int, "\(file)")
            #expect(values["md5"] as? String == md5)
            #expect(FileManager.default.fileExists(atPath: exports.appendingPathComponent("thumbs/\(md5).jpg").path))
        }

        let attemptsBefore = try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM attempts")
        let workersBefore = try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM workers")
        #expect(workersBefore == 2)
        let second = try PhotomillBinary.run([
            "run", photos.path, "--workers", "2", "--catalog", catalog.path,
            "--exports", exports.path,
        ])
        #expect(second.stdout.contains("0 new, 0 changed, 14 unchanged photos; 0 tasks queued"), "\(second.stdout)")
        #expect(second.stdout.contains("skipped: 1 file"), "\(second.stdout)")
        #expect(try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM attempts") == attemptsBefore, "no job dispatched")
        // Each worker process registers itself under a new id (its pid is part of it).
        #expect(try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM workers") == workersBefore, "no worker started")

        // Work left in the catalog (the failures, given a fresh budget) starts the worker
        // although the scan finds nothing new, and is attempted again. One worker: of two,
        // the first to connect may take the few retried tasks and end the run before the
        // second has said READY (under load it did, and this test failed).
        let failedTasks = try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE state = 'failed'")
        #expect(try PhotomillBinary.run(["retry", "--catalog", catalog.path]).status == 0)
        let third = try PhotomillBinary.run([
            "run", photos.path, "--workers", "1", "--catalog", catalog.path,
            "--exports", exports.path,
        ])
        #expect(third.stdout.contains("0 tasks queued"), "\(third.stdout)")
        #expect(try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM workers") == workersBefore + 1)
        #expect(try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE state IN ('pending', 'leased')") == 0)
        #expect(try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM attempts") >= attemptsBefore + failedTasks)
    }

    /// A coordinator and two workers over tcp loopback, started separately; one worker
    /// is killed with SIGKILL mid-run. Nothing is lost, nothing is committed twice, and
    /// the attempts table shows the lost attempt.
    @Test func workerKilledMidRunLosesNothing() throws {
        let directory = try temporaryDirectory()
        let photos = directory.appendingPathComponent("photos")
        #expect(try PhotomillBinary.run(["samples", photos.path, "--count", "40", "--seed", "8"]).status == 0)
        let catalog = directory.appendingPathComponent("catalog.sqlite")
        let coordinator = try BackgroundProcess([
            "coordinator", "--bind", anyLoopbackPort, "--insecure", "--catalog", catalog.path,
            "--no-exports", "--kinds", "hash,metadata,thumbnail,ocr", photos.path,
        ])
        let endpoint = try coordinator.boundEndpoint()
        let doomed = try BackgroundProcess(["worker", "--connect", endpoint, "--insecure", "--slots", "1"])
        let survivor = try BackgroundProcess(["worker", "--connect", endpoint, "--insecure", "--slots", "1"])

        // Kill one worker once some work is committed (it then holds a job).
        #expect(
            try eventually(seconds: 60) {
                try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM attempts WHERE outcome = 'done'") >= 8
            }
        )
        doomed.signal(SIGKILL)
        #expect(doomed.wait(seconds: 5) != nil)

        // 40 samples, each a photo (the text and empty files named .jpg fail at the scan);
        // the scan runs beside the work, so its last tasks may come after the kill.
        let total = 40 * 4
        #expect(try eventually(seconds: 60) { try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks") == total })
        let finished = try eventually(seconds: 180) {
            try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE state IN ('done', 'failed')") == total
        }
        #expect(finished, "coordinator: \(coordinator.stderr)")
        #expect(
            try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM attempts WHERE outcome = 'worker-lost'") >= 1,
            "the killed worker's lease shows as lost"
        )
        #expect(
            try CatalogQuery.count(
                catalog,
                "SELECT COUNT(*) FROM (SELECT photoId, kind FROM attempts WHERE outcome = 'done' GROUP BY photoId, kind HAVING COUNT(*) > 1)"
            ) == 0,
            "nothing committed twice"
        )
        // Every task done is backed by exactly one done attempt.
        #expect(
            try CatalogQuery.count(
                catalog,
                "SELECT COUNT(*) FROM tasks t WHERE t.state = 'done' AND (SELECT COUNT(*) FROM attempts a WHERE a.photoId = t.photoId AND a.kind = t.kind AND a.outcome = 'done') != 1"
            ) == 0
        )

        let status = try PhotomillBinary.run(["status", "--json", "--catalog", catalog.path])
        #expect(status.status == 0)
        #expect(status.stdout.contains("\"ocr\""))

        coordinator.signal(SIGTERM)
        survivor.signal(SIGTERM)
        #expect(coordinator.wait(seconds: 20) == 0, "\(coordinator.stderr)")
        #expect(survivor.wait(seconds: 40) != nil)
    }

    @Test func statusOfMissingCatalogSaysWhatToDo() throws {
        let outcome = try PhotomillBinary.run(["status", "--catalog", "/nonexistent/catalog.sqlite"])
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains("/nonexistent/catalog.sqlite"))
        #expect(outcome.stderr.contains("photomill run"))
    }
}
