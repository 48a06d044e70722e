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

/// No orphans, no phantoms (docs/reliability.md, "Accidents"): the workers `run` starts
/// end with it however it ends, `status` does not show a dead run's workers connected,
/// and a `run` whose workers cannot start ends instead of waiting for ever.
@Suite(.serialized, .ownThread) struct NoOrphanTests {
    /// kill -9, and the SIGHUP a closed terminal sends (`run` does not catch it).
    @Test(arguments: [SIGKILL, SIGHUP])
    func workersDieWithTheirRunAndStatusShowsNoneConnected(signal: Int32) throws {
        let bench = try FaultBench(count: 24, seed: 71)
        let run = try BackgroundProcess(
            [
                "run", bench.photos.path, "--workers", "2", "--slots", "1", "--kinds", "hash,metadata",
                "--catalog", bench.catalog.path, "--no-exports",
            ],
            environment: ["PHOTOMILL_FAULT_HANG_ON": "*:0.3"]
        )
        // Both workers' rows written, not only both processes started: a row is written with
        // the next commit after its worker's HELLO, and the signal leaves no later commit.
        let connected = "SELECT COUNT(*) FROM workers WHERE state = 'connected'"
        #expect(
            eventually(seconds: 90) { bench.doneAttempts >= 2 && (try? bench.count(connected)) == 2 },
            "\(run.stderr)"
        )
        let workers = childProcesses(of: run.pid)
        defer { for pid in workers { kill(pid, SIGKILL) } }
        #expect(workers.count == 2, "two workers before the signal: \(workers)")
        run.signal(signal)
        #expect(run.wait(seconds: 10) != nil, "run ended on signal \(signal)")
        // /proc, not kill(0): a worker that ended is reaped by init, so its /proc entry goes.
        #expect(
            eventually(seconds: 5) { workers.allSatisfy { !FileManager.default.fileExists(atPath: "/proc/\($0)") } },
            "no worker outlives its run by 5 s: \(workers.filter { FileManager.default.fileExists(atPath: "/proc/\($0)") })"
        )

        // The catalog still says `connected` (no one was left to write otherwise); status
        // knows the holder is dead and shows them gone, with nothing in flight.
        #expect(try bench.count(connected) == 2)
        let status = try PhotomillBinary.run(["status", "--json", "--catalog", bench.catalog.path])
        #expect(status.status == 0, "\(status.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let rows = json?["workers"] as? [[String: Any]] ?? []
        #expect(
            rows.count == 2 && rows.allSatisfy { $0["state"] as? String == "gone" && $0["inFlight"] as? Int == 0 },
            "\(rows)"
        )
        let text = try PhotomillBinary.run(["status", "--catalog", bench.catalog.path])
        #expect(text.stdout.contains("workers: 0 connected, 2 gone"), "\(text.stdout)")
    }

    /// A worker that exits at once (as a binary replaced by an upgrade would): `run` gives
    /// up after 3 in a row and says why, instead of restarting them for ever.
    @Test func runWhoseWorkersCannotStartEndsWithTheCause() throws {
        let bench = try FaultBench(count: 6, seed: 72)
        let run = try BackgroundProcess(
            [
                "run", bench.photos.path, "--workers", "2", "--kinds", "hash",
                "--catalog", bench.catalog.path, "--no-exports",
            ],
            environment: ["PHOTOMILL_FAULT_EXIT_AT_START": "71"]
        )
        let status = run.wait(seconds: 60)
        #expect(
            status == 1,
            "ends, with the status of a failure its message names: \(String(describing: status)) \(run.stderr)"
        )
        #expect(
            run.stderr.contains("its worker processes cannot start: 3 in a row exited with status 71"),
            "\(run.stderr)"
        )
        #expect(
            try bench.count("SELECT COUNT(*) FROM tasks WHERE state != 'pending'") == 0,
            "nothing lost: every task still pending"
        )
        #expect(
            !FileManager.default.fileExists(atPath: bench.catalog.path + "-lock"),
            "a clean exit: the lock is let go"
        )
    }
}
