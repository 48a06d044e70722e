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

/// The wall clock steps by an hour in the middle of a run (NTP, a VM resumed, `date -s`):
/// `photomill run` and its worker processes run under libfaketime, which moves their wall
/// clock (`CLOCK_REALTIME`, `time`, `gettimeofday`) when the test rewrites its timestamp
/// file, and leaves their monotonic clock alone (FAKETIME_DONT_FAKE_MONOTONIC). Leases,
/// heartbeats and liveness are measured on the monotonic clock: no worker is dropped, no
/// lease expires, no result is refused, and the run ends as it would have. What is
/// stored is dated by the stepped wall clock, which shows that the step happened.
@Suite(.serialized, .ownThread) struct WallClockStepTests {
    static let libfaketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1"
    static let available = FileManager.default.fileExists(atPath: libfaketime)

    @Test(
        .enabled(if: available, "needs libfaketime (Debian faketime, installed by scripts/install-deps.sh)"),
        arguments: [3600, -3600]
    )
    func runSurvivesAStepOfTheWallClock(step: Int) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let photos = directory.appendingPathComponent("photos")
        #expect(
            try PhotomillBinary.run([
                "samples", photos.path, "--count", "24", "--seed", "31", "--photo-size", "640x480",
            ]).status == 0
        )
        // Only photos that process cleanly: any failure here would be the step's doing.
        for name in try FileManager.default.contentsOfDirectory(atPath: photos.path) where name.hasPrefix("broken_") {
            try FileManager.default.removeItem(at: photos.appendingPathComponent(name))
        }
        let count = try FileManager.default.contentsOfDirectory(atPath: photos.path).filter { $0 != "samples.json" }
            .count
        let catalog = directory.appendingPathComponent("catalog.sqlite")
        let clock = directory.appendingPathComponent("faketime.rc")
        try "+0\n".write(to: clock, atomically: true, encoding: .utf8)
        let started = Date().timeIntervalSince1970
        // Every job takes a quarter of a second more, so that the run lasts past the step.
        // Through sh: libfaketime's first process publishes its shared clock with setenv(),
        // which moves `environ`, where Swift on Linux finds argv; sh takes that part.
        let run = try BackgroundProcess(
            [
                "run", photos.path, "--workers", "2", "--kinds", "hash,metadata,thumbnail",
                "--catalog", catalog.path, "--no-exports",
            ],
            launcher: ["/bin/sh", "-c", "exec \"$0\" \"$@\""],
            environment: [
                "LD_PRELOAD": Self.libfaketime, "FAKETIME_TIMESTAMP_FILE": clock.path,
                "FAKETIME_NO_CACHE": "1", "FAKETIME_DONT_FAKE_MONOTONIC": "1",
                "NO_FAKE_STAT": "1", "PHOTOMILL_FAULT_HANG_ON": "*:0.25",
            ]
        )
        let done = "SELECT COUNT(*) FROM attempts WHERE outcome = 'done'"
        #expect(eventually(seconds: 60) { ((try? CatalogQuery.count(catalog, done)) ?? 0) >= 6 }, "\(run.stderr)")
        try "\(step > 0 ? "+" : "")\(step)\n".write(to: clock, atomically: true, encoding: .utf8)
        let status = run.wait(seconds: 120)
        #expect(status == 0, "\(run.stderr)")

        let tasks = try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks")
        #expect(tasks == 3 * count && count >= 18)
        #expect(try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE state = 'done'") == tasks)
        // Nothing taken back, nothing refused: one attempt per task, each done.
        #expect(
            try CatalogQuery.rows(catalog, "SELECT outcome, COUNT(*) FROM attempts GROUP BY outcome") == [
                ["done", "\(tasks)"]
            ]
        )
        // The step happened, inside the processes: results after it carry the stepped time.
        let stepped =
            step > 0 ? "endedAt > \(started + Double(step) - 600)" : "endedAt < \(started + Double(step) + 600)"
        #expect(try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM attempts WHERE \(stepped)") > 0)
        #expect(
            try CatalogQuery.count(
                catalog,
                "SELECT COUNT(*) FROM attempts WHERE endedAt BETWEEN \(started - 60) AND \(started + 600)"
            ) > 0
        )
    }
}
