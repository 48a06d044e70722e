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

/// Faults of workers (docs/reliability.md): killed, frozen, hung on a job, crashing on a
/// poison photo. Real processes over tcp loopback, a real catalog, books checked with
/// Python's sqlite3. Waits are bounded and generous; times are reported, not asserted.
// Not serialized: each test has its own processes, port and catalog, and mostly waits
// (heartbeat silences, backoffs, sleeping jobs), so they overlap well.
@Suite(.ownThread) struct WorkerFaultTests {
    /// 2,000 photos (100 samples, 20 copies of each), three single-slot workers, one of them SIGKILLed at a random moment
    /// every 0.3–0.7 s and replaced (as `run` replaces dead workers), at least 20 times.
    /// Each job sleeps 50 ms (PHOTOMILL_FAULT_HANG_ON=*); where the work runs out before the
    /// kills do (on a busy machine a kill and a new worker take seconds), five more copies of
    /// the samples are added to the folder and the kills go on: the kills never race the work.
    @Test func workersKilledAtRandomLoseNothing() throws {
        var bench = try FaultBench(count: 100, seed: 21, copies: 20)
        let coordinator = try BackgroundProcess.coordinator(anyLoopbackPort, bench)
        let endpoint = try coordinator.boundEndpoint()
        let slow = ["PHOTOMILL_FAULT_HANG_ON": "*:0.05"]
        var workers = try (0..<3).map { _ in
            try BackgroundProcess.worker(endpoint, root: bench.photos, environment: slow)
        }
        #expect(eventually(seconds: 120) { bench.doneAttempts >= 50 }, "\(coordinator.stderr)")
        // The scan runs beside the work: until it has queued every photo, "nothing unfinished"
        // can be a moment between two of its batches.
        #expect(
            eventually(seconds: 120) { (try? bench.count("SELECT COUNT(*) FROM tasks")) == bench.files.count * 2 },
            "\(coordinator.stderr)"
        )

        var random = SystemRandomNumberGenerator()
        var kills = 0
        var lastKill = Stopwatch()
        var added = 0
        while kills < 24 {
            usleep(UInt32.random(in: 300_000...700_000, using: &random))
            if bench.unfinished == 0 {
                guard added < 20 else { break }
                for _ in 0..<5 { try bench.addCopy() }
                added += 5
                let expected = bench.files.count * 2
                #expect(
                    eventually(seconds: 60) { (try? bench.count("SELECT COUNT(*) FROM tasks")) == expected },
                    "copies up to \(added) were not seen: \(coordinator.stderr)"
                )
                continue
            }
            let victim = Int.random(in: 0..<workers.count, using: &random)
            workers[victim].signal(SIGKILL)
            #expect(workers[victim].wait(seconds: 10) != nil)
            lastKill = Stopwatch()
            kills += 1
            workers[victim] = try BackgroundProcess.worker(endpoint, root: bench.photos, environment: slow)
        }
        #expect(kills >= 20, "the run ended before 20 kills")
        #expect(bench.waitUntilFinished(), "coordinator: \(coordinator.stderr)")
        let recovery = lastKill.seconds

        let ledger = try bench.ledger()
        ledger.expectNothingLost("after \(kills) kills")
        #expect(ledger.tasks == bench.files.count * 2)
        #expect(ledger.workerLost >= 1, "the killed workers' leases show as lost: \(ledger)")
        // A lost lease is retried: no good photo ends failed because of a few kills.
        #expect(
            try bench.count("SELECT COUNT(*) FROM tasks WHERE errorClass = 'worker-lost' AND state = 'failed'") == 0
        )
        FaultReport.record(
            "worker SIGKILL at random",
            injected: kills,
            affected: ledger.workerLost,
            lost: ledger.lost,
            twice: ledger.committedTwice,
            recovery: recovery,
            note: "from the last kill to all done" + (added > 0 ? "; \(added) copies added as the work ran out" : "")
        )
        coordinator.signal(SIGTERM)
        #expect(coordinator.wait(seconds: 30) == 0, "\(coordinator.stderr)")
        for worker in workers { worker.signal(SIGTERM) }
        for worker in workers { #expect(worker.wait(seconds: 60) != nil) }
    }

    /// A worker killed with a batch of finished results it had not sent yet
    /// (PHOTOMILL_FAULT_CRASH_WITH_RESULTS holds them back until it holds 4, then SIGKILL):
    /// its four jobs — one JOBS to its four free slots — are taken back when it falls silent
    /// and redone by another worker; each of their tasks has one `worker-lost` attempt from
    /// the dead worker and one `done` from the other, nothing is committed twice.
    @Test func workerKilledWithABatchNotSentHasItRedone() throws {
        let bench = try FaultBench(count: 40, seed: 25)
        let coordinator = try BackgroundProcess.coordinator(anyLoopbackPort, bench)
        let endpoint = try coordinator.boundEndpoint()
        #expect(
            eventually(seconds: 60) { ((try? bench.count("SELECT COUNT(*) FROM tasks")) ?? 0) == bench.files.count * 2 }
        )
        let doomed = try BackgroundProcess.worker(
            endpoint,
            root: bench.photos,
            slots: 4,
            environment: ["PHOTOMILL_FAULT_CRASH_WITH_RESULTS": "4"]
        )
        #expect(doomed.wait(seconds: 60) != nil, "the worker did not die: \(doomed.stderr)")
        let diedAt = Stopwatch()
        #expect(doomed.stderr.contains("dying with 4 results not sent"), "\(doomed.stderr)")
        let other = try BackgroundProcess.worker(endpoint, root: bench.photos, slots: 2)
        #expect(bench.waitUntilFinished(), "\(coordinator.stderr)")
        let recovery = diedAt.seconds

        let ledger = try bench.ledger()
        ledger.expectNothingLost("a batch lost with its worker")
        let byDoomed = { (outcome: String) in
            try bench.count(
                "SELECT COUNT(*) FROM attempts WHERE outcome = '\(outcome)' AND worker LIKE '%-\(doomed.pid)-%'"
            )
        }
        // 4 jobs × 2 kinds (hash, metadata), all lost with the worker; none done by it.
        #expect(try byDoomed("worker-lost") == 8, "\(ledger)")
        #expect(try byDoomed("done") == 0)
        #expect(
            try bench.count(
                """
                SELECT COUNT(*) FROM attempts a WHERE a.outcome = 'done' AND EXISTS (SELECT 1 FROM attempts b
                    WHERE b.photoId = a.photoId AND b.kind = a.kind AND b.outcome = 'worker-lost' AND b.worker LIKE '%-\(doomed.pid)-%')
                """
            ) == 8,
            "each lost task done afterwards, once"
        )
        FaultReport.record(
            "worker SIGKILL with a batch not sent",
            injected: 1,
            affected: 4,
            lost: ledger.lost,
            twice: ledger.committedTwice,
            recovery: recovery,
            note: "4 jobs of one JOBS; from the death to all done"
        )
        coordinator.signal(SIGTERM)
        #expect(coordinator.wait(seconds: 30) == 0, "\(coordinator.stderr)")
        other.signal(SIGTERM)
        #expect(other.wait(seconds: 60) != nil)
    }

    /// A worker frozen with SIGSTOP while it holds a job (its socket open, its process
    /// hung): the coordinator takes the job back when the worker falls silent and another
    /// worker does it; after SIGCONT the frozen worker's late result is recorded as stale
    /// and discarded, and the worker reconnects by itself and takes new work.
    @Test func frozenWorkerIsReplacedAndItsLateResultIsStale() throws {
        let bench = try FaultBench(count: 150, seed: 22)
        let coordinator = try BackgroundProcess.coordinator(anyLoopbackPort, bench)
        let endpoint = try coordinator.boundEndpoint()
        let photo = bench.goodFile(0)
        // The frozen worker sits on the first good photo, so that it holds it when frozen.
        let frozen = try BackgroundProcess.worker(
            endpoint,
            root: bench.photos,
            environment: ["PHOTOMILL_FAULT_HANG_ON": (photo as NSString).lastPathComponent + ":3"]
        )
        let leasedToFrozen =
            "SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path = '\(photo)' AND t.state = 'leased' AND t.leasedTo LIKE '%-\(frozen.pid)-%'"
        #expect(eventually(seconds: 60) { ((try? bench.count(leasedToFrozen)) ?? 0) > 0 }, "\(coordinator.stderr)")
        frozen.signal(SIGSTOP)
        let frozenAt = Stopwatch()
        let honest = try BackgroundProcess.worker(endpoint, root: bench.photos)

        let photoDone =
            "SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path = '\(photo)' AND t.state = 'done'"
        #expect(
            eventually(seconds: 90) { ((try? bench.count(photoDone)) ?? 0) == 2 },
            "re-leased and done: \(coordinator.stderr)"
        )
        let recovery = frozenAt.seconds
        #expect(
            try bench.count(
                "SELECT COUNT(*) FROM attempts a JOIN photos p ON p.id = a.photoId WHERE p.path = '\(photo)' AND a.outcome = 'worker-lost' AND a.worker LIKE '%-\(frozen.pid)-%'"
            ) == 2
        )

        frozen.signal(SIGCONT)
        let resumedAt = Date().timeIntervalSince1970
        let staleFromFrozen =
            "SELECT COUNT(*) FROM attempts a JOIN photos p ON p.id = a.photoId WHERE p.path = '\(photo)' AND a.outcome = 'stale' AND a.worker LIKE '%-\(frozen.pid)-%'"
        #expect(
            eventually(seconds: 60) { ((try? bench.count(staleFromFrozen)) ?? 0) == 2 },
            "the late result is stale: \(frozen.stderr)"
        )
        // It carries on: connected again (retried work goes last, so none may be left for it).
        let connected =
            "SELECT COUNT(*) FROM workers WHERE id LIKE '%-\(frozen.pid)-%' AND state = 'connected' AND lastSeen >= \(resumedAt)"
        #expect(eventually(seconds: 60) { ((try? bench.count(connected)) ?? 0) == 1 }, "\(frozen.stderr)")
        #expect(bench.waitUntilFinished(), "\(coordinator.stderr)")

        let ledger = try bench.ledger()
        ledger.expectNothingLost("frozen worker")
        // Its late result is not a protocol violation.
        #expect(try bench.count("SELECT COUNT(*) FROM violations") == 0, "\(coordinator.stderr)")
        FaultReport.record(
            "worker SIGSTOP (frozen)",
            injected: 1,
            affected: 1,
            lost: ledger.lost,
            twice: ledger.committedTwice,
            recovery: recovery,
            note: "from SIGSTOP to the job done elsewhere; late result stale"
        )
        coordinator.signal(SIGTERM)
        #expect(coordinator.wait(seconds: 30) == 0)
        frozen.signal(SIGTERM)
        honest.signal(SIGTERM)
        #expect(frozen.wait(seconds: 60) == 0)
        #expect(honest.wait(seconds: 60) != nil)
    }

    /// A job that hangs inside a live worker (its socket thread still answers and sends
    /// EXTEND): the lease is capped at 4 × the deadline, expires, and the job is done by
    /// another worker; the late result is stale; the hung worker then carries on.
    @Test func hungJobOutlivesItsLease() throws {
        let bench = try FaultBench(count: 120, seed: 23)
        let coordinator = try BackgroundProcess.coordinator(
            anyLoopbackPort,
            bench,
            extra: ["--no-exports", "--lease-seconds", "2"]
        )
        let endpoint = try coordinator.boundEndpoint()
        let photo = bench.goodFile(0)
        let hung = try BackgroundProcess.worker(
            endpoint,
            root: bench.photos,
            environment: ["PHOTOMILL_FAULT_HANG_ON": (photo as NSString).lastPathComponent + ":12"]
        )
        let leasedToHung =
            "SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path = '\(photo)' AND t.state = 'leased' AND t.leasedTo LIKE '%-\(hung.pid)-%'"
        #expect(eventually(seconds: 60) { ((try? bench.count(leasedToHung)) ?? 0) > 0 }, "\(coordinator.stderr)")
        let hungAt = Stopwatch()
        let other = try BackgroundProcess.worker(endpoint, root: bench.photos)

        let expired =
            "SELECT COUNT(*) FROM attempts a JOIN photos p ON p.id = a.photoId WHERE p.path = '\(photo)' AND a.outcome = 'lease-expired' AND a.worker LIKE '%-\(hung.pid)-%'"
        #expect(
            eventually(seconds: 60) { ((try? bench.count(expired)) ?? 0) == 2 },
            "the capped lease expires: \(coordinator.stderr)"
        )
        let photoDone =
            "SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path = '\(photo)' AND t.state = 'done'"
        #expect(eventually(seconds: 60) { ((try? bench.count(photoDone)) ?? 0) == 2 }, "\(coordinator.stderr)")
        let recovery = hungAt.seconds
        let stale =
            "SELECT COUNT(*) FROM attempts a JOIN photos p ON p.id = a.photoId WHERE p.path = '\(photo)' AND a.outcome = 'stale' AND a.worker LIKE '%-\(hung.pid)-%'"
        #expect(eventually(seconds: 60) { ((try? bench.count(stale)) ?? 0) == 2 }, "\(hung.stderr)")
        let staleAt = try #require(
            Double(
                try CatalogQuery.rows(bench.catalog, "SELECT MAX(endedAt) FROM attempts WHERE outcome = 'stale'").first?
                    .first ?? ""
            )
        )
        let connected =
            "SELECT COUNT(*) FROM workers WHERE id LIKE '%-\(hung.pid)-%' AND state = 'connected' AND lastSeen >= \(staleAt)"
        #expect(
            eventually(seconds: 60) { ((try? bench.count(connected)) ?? 0) == 1 },
            "the hung worker carries on: \(hung.stderr)"
        )
        #expect(bench.waitUntilFinished(), "\(coordinator.stderr)")

        let ledger = try bench.ledger()
        ledger.expectNothingLost("hung job")
        #expect(try bench.count("SELECT COUNT(*) FROM violations") == 0, "EXTENDs of a taken-back job are no violation")
        FaultReport.record(
            "job outlives its lease (hung)",
            injected: 1,
            affected: 1,
            lost: ledger.lost,
            twice: ledger.committedTwice,
            recovery: recovery,
            note: "lease 2 s, capped at 8 s; from the grant to done elsewhere"
        )
        coordinator.signal(SIGTERM)
        #expect(coordinator.wait(seconds: 30) == 0)
        hung.signal(SIGTERM)
        other.signal(SIGTERM)
        #expect(hung.wait(seconds: 60) == 0)
        #expect(other.wait(seconds: 60) != nil)
    }

    /// A photo that kills its worker process every time (PHOTOMILL_FAULT_CRASH_ON): `run`
    /// restarts the workers, the lost attempts count, and after the third the photo's
    /// tasks are `failed` with class worker-lost; every other photo completes.
    @Test func poisonPhotoEndsFailedAndTheRestCompletes() throws {
        let bench = try FaultBench(count: 40, seed: 24)
        let poison = bench.goodFile(3)
        let started = Stopwatch()
        let outcome = try PhotomillBinary.run(
            [
                "run", bench.photos.path, "--workers", "2", "--slots", "1", "--kinds", "hash,metadata", "--catalog",
                bench.catalog.path, "--no-exports",
            ],
            environment: ["PHOTOMILL_FAULT_CRASH_ON": (poison as NSString).lastPathComponent]
        )
        let elapsed = started.seconds
        #expect(outcome.status == 1, "\(outcome.stdout) \(outcome.stderr)")
        #expect(outcome.stdout.contains("worker-lost"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("worker processes restarted after dying: 3"), "\(outcome.stdout)")

        let states = try CatalogQuery.rows(
            bench.catalog,
            "SELECT t.state, t.errorClass, t.attempts FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path = '\(poison)'"
        )
        #expect(states.count == 2)
        #expect(states.allSatisfy { $0 == ["failed", "worker-lost", "3"] }, "\(states)")
        #expect(
            try bench.count(
                "SELECT COUNT(*) FROM attempts a JOIN photos p ON p.id = a.photoId WHERE p.path = '\(poison)' AND a.outcome = 'worker-lost'"
            ) == 6
        )
        let ledger = try bench.ledger()
        // The poison photo is the only good one allowed not to be done.
        #expect(ledger.lost == 2, "\(ledger)")
        #expect(ledger.committedTwice == 0 && ledger.unaccounted == 0 && ledger.brokenUnexplained == 0, "\(ledger)")
        FaultReport.record(
            "poison photo (worker aborts)",
            injected: 3,
            affected: 2,
            lost: 0,
            twice: ledger.committedTwice,
            recovery: elapsed,
            note: "whole run; the photo's 2 tasks failed worker-lost after 3 attempts"
        )
    }
}
