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

/// Faults of the coordinator and of its surroundings (docs/reliability.md): killed and
/// restarted, stopped with SIGTERM, photos that change or vanish after the scan.
// Not serialized: each test has its own processes, port and catalog.
@Suite(.ownThread) struct CoordinatorFaultTests {
    /// The coordinator is SIGKILLed mid-run and started again on the same catalog and
    /// port: the workers reconnect by themselves and re-send what was not acknowledged,
    /// the leases of the first run are settled by those re-sent results (none waits out
    /// the restart grace), nothing is lost or committed twice, and every export file is
    /// whole. One of the two workers reads the files, the other is fed their bytes.
    @Test func coordinatorKilledAndRestartedLosesNothing() throws {
        let bench = try FaultBench(count: 300, seed: 31)
        let exports = bench.directory.appendingPathComponent("exports")
        let kinds = "hash,metadata,thumbnail"
        let arguments = ["--exports", exports.path]
        let slow = ["PHOTOMILL_FAULT_HANG_ON": "*:0.02"]
        var coordinator = try BackgroundProcess.coordinator(anyLoopbackPort, bench, kinds: kinds, extra: arguments)
        // Its restart binds the same port again: the workers know only this one.
        let endpoint = try coordinator.boundEndpoint()
        // The scan first: a photo's thumbnail joins its bytes' JOB when it is paged in with it.
        #expect(eventually(seconds: 60) { (try? bench.count("SELECT COUNT(*) FROM tasks")) == bench.files.count * 3 })
        // One reads the files, one is fed bytes (its JOBs carry hash, metadata and thumbnail
        // at once: PROTOCOL.md, "Each file's bytes once").
        let workers = try [bench.photos, nil].map { root in
            try BackgroundProcess.worker(endpoint, root: root, slots: 2, kinds: kinds, environment: slow)
        }
        #expect(eventually(seconds: 120) { bench.doneAttempts >= 150 }, "\(coordinator.stderr)")

        coordinator.signal(SIGKILL)
        #expect(coordinator.wait(seconds: 10) != nil)
        let killedAt = Stopwatch()
        let doneAtKill = bench.doneAttempts
        #expect(bench.unfinished > 0, "the kill came mid-run")
        coordinator = try BackgroundProcess.coordinator(endpoint, bench, kinds: kinds, extra: arguments)
        #expect(eventually(seconds: 60) { bench.doneAttempts > doneAtKill }, "commits resume: \(coordinator.stderr)")
        let recovery = killedAt.seconds
        #expect(bench.waitUntilFinished(), "\(coordinator.stderr)")

        let ledger = try bench.ledger()
        ledger.expectNothingLost("coordinator restart")
        // The fed worker's share: each of its hash tasks done in one JOB with the thumbnail.
        let fed = workers[1].pid
        #expect(
            try bench.count(
                """
                SELECT COUNT(*) FROM attempts h WHERE h.kind = 'hash' AND h.outcome = 'done' AND h.worker LIKE '%-\(fed)-%'
                    AND NOT EXISTS (SELECT 1 FROM attempts t WHERE t.leaseToken = h.leaseToken AND t.kind = 'thumbnail')
                """
            ) == 0
        )
        #expect(
            try bench.count("SELECT COUNT(*) FROM attempts WHERE outcome = 'done' AND worker LIKE '%-\(fed)-%'") > 0
        )
        // The first run's open leases were settled by their workers' re-sent results: none
        // waited out the restart grace or its deadline.
        #expect(
            try bench.count(
                "SELECT COUNT(*) FROM attempts WHERE outcome = 'lease-expired' OR errorMessage LIKE '%did not come back%'"
            ) == 0,
            "\(coordinator.stderr)"
        )
        coordinator.signal(SIGTERM)
        #expect(coordinator.wait(seconds: 30) == 0, "\(coordinator.stderr)")

        // Every export is whole: each plist parses, each thumbnail is a complete JPEG, no
        // temporary file is left, and every hashed photo has its plist (including those
        // the killed coordinator had committed but not yet exported).
        let check = try Tool.run(
            "python3",
            [
                "-c",
                """
                import os, plistlib, sqlite3, sys
                root, catalog = sys.argv[1], sys.argv[2]
                con = sqlite3.connect('file:' + catalog + '?mode=ro', uri=True)
                md5s = {r[0] for r in con.execute("SELECT md5 FROM photos WHERE md5 IS NOT NULL")}
                thumbs = {r[0] for r in con.execute("SELECT p.md5 FROM photos p JOIN thumbnails t ON t.photoId = p.id")}
                problems = []
                for folder in ('metadata', 'thumbs', ''):
                    for name in os.listdir(os.path.join(root, folder)):
                        if name.endswith('.tmp'): problems.append('temporary file left: ' + name)
                plists = {n[:-6] for n in os.listdir(os.path.join(root, 'metadata')) if not n.startswith('.')}
                for md5 in plists:
                    with open(os.path.join(root, 'metadata', md5 + '.plist'), 'rb') as f:
                        if plistlib.load(f).get('md5') != md5: problems.append('plist of another photo: ' + md5)
                jpegs = {n[:-4] for n in os.listdir(os.path.join(root, 'thumbs')) if not n.startswith('.')}
                for md5 in jpegs:
                    data = open(os.path.join(root, 'thumbs', md5 + '.jpg'), 'rb').read()
                    if data[:2] != b'\\xff\\xd8' or data[-2:] != b'\\xff\\xd9': problems.append('partial thumbnail: ' + md5)
                if plists != md5s: problems.append('plists missing: %d, extra: %d' % (len(md5s - plists), len(plists - md5s)))
                if jpegs != thumbs: problems.append('thumbnails missing: %d, extra: %d' % (len(thumbs - jpegs), len(jpegs - thumbs)))
                plistlib.load(open(os.path.join(root, 'manifest.plist'), 'rb'))
                print(len(plists), len(jpegs)); print('\\n'.join(problems))
                """, exports.path, bench.catalog.path,
            ]
        )
        #expect(check.status == 0 && check.lines.count == 1, "\(check.lines) \(check.stderr)")
        FaultReport.record(
            "coordinator SIGKILL + restart",
            injected: 1,
            affected: ledger.tasks - doneAtKill,
            lost: ledger.lost,
            twice: ledger.committedTwice,
            recovery: recovery,
            note: "from the kill to the first commit of the new coordinator; exports whole"
        )
        for worker in workers { worker.signal(SIGTERM) }
        for worker in workers { #expect(worker.wait(seconds: 60) == 0) }
    }

    /// SIGTERM to a busy worker: it finishes the jobs in hand, delivers them, refuses new
    /// ones (handed back without using an attempt) and exits 0. SIGTERM to the busy
    /// coordinator while a job is stuck: it commits what comes in for 5 s, hands the stuck
    /// job back (no attempt used, no lease left), tells the workers and exits 0. A new
    /// coordinator then finishes the run with the remaining worker.
    /// Between the coordinators the worker tries a new socket every few seconds: each
    /// queued a READY, and before the fix every one of them reached the new coordinator
    /// (closed sockets with a monitor lived on in libzmq), each replacing the session.
    @Test
    func sigtermDrainsWorkerAndCoordinator() throws {
        let bench = try FaultBench(count: 80, seed: 32)
        var coordinator = try BackgroundProcess.coordinator(anyLoopbackPort, bench)
        let endpoint = try coordinator.boundEndpoint()
        let slow = ["PHOTOMILL_FAULT_HANG_ON": "*:0.2"]
        // The staying worker is stuck on one photo past the coordinator's 5 s drain: until
        // the test has seen the job handed back (the file `released` appears). It starts
        // alone and the leaving worker only once it holds that photo: however far the
        // leaving worker gets before the test looks, it cannot take the stuck photo (under
        // load it once did the whole run before the test saw 20 attempts).
        let stuck = try #require(bench.files.first { !bench.broken.contains($0) })
        let released = bench.directory.appendingPathComponent("released")
        let staying = try BackgroundProcess.worker(
            endpoint,
            root: bench.photos,
            slots: 2,
            environment: [
                "PHOTOMILL_FAULT_HANG_ON": (stuck as NSString).lastPathComponent + ":@\(released.path),*:0.2"
            ]
        )
        let stuckLeased =
            "SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path = '\(stuck)' AND t.state = 'leased' AND t.leasedTo LIKE '%-\(staying.pid)-%'"
        #expect(eventually(seconds: 120) { ((try? bench.count(stuckLeased)) ?? 0) == 2 }, "\(coordinator.stderr)")
        let leaving = try BackgroundProcess.worker(endpoint, root: bench.photos, slots: 2, environment: slow)
        #expect(eventually(seconds: 120) { bench.doneAttempts >= 20 }, "\(coordinator.stderr)")

        let workerStopped = Date().timeIntervalSince1970
        leaving.signal(SIGTERM)
        #expect(leaving.wait(seconds: 60) == 0, "\(leaving.stderr)")
        let workerDrain = Date().timeIntervalSince1970 - workerStopped
        let byLeaving = "worker LIKE '%-\(leaving.pid)-%'"
        let finishedInDrain = try bench.count(
            "SELECT COUNT(*) FROM attempts WHERE \(byLeaving) AND outcome = 'done' AND endedAt > \(workerStopped)"
        )
        #expect(
            try bench.count("SELECT COUNT(*) FROM attempts WHERE \(byLeaving) AND outcome != 'done'") == 0,
            "a stopping worker loses nothing and uses no attempt"
        )

        #expect(try bench.count(stuckLeased) == 2, "the staying worker still holds the stuck photo")
        let coordinatorStopped = Stopwatch()
        coordinator.signal(SIGTERM)
        #expect(coordinator.wait(seconds: 60) == 0, "\(coordinator.stderr)")
        let coordinatorDrain = coordinatorStopped.seconds
        #expect(try bench.count("SELECT COUNT(*) FROM tasks WHERE state = 'leased'") == 0, "every lease handed back")
        let handedBack = try bench.count(
            "SELECT COUNT(*) FROM tasks WHERE state = 'pending' AND errorMessage = 'coordinator stopped'"
        )
        let stuckBack =
            "SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path = '\(stuck)' AND t.state = 'pending' AND t.attempts = 0 AND t.errorMessage = 'coordinator stopped'"
        #expect(try bench.count(stuckBack) == 2, "the job still running is handed back, its attempt given back")
        #expect(bench.unfinished > 0, "stopped mid-run")
        #expect(try bench.ledger().unaccounted == 0)
        #expect(FileManager.default.createFile(atPath: released.path, contents: nil))

        // The remaining worker reconnects to a new coordinator by itself and finishes.
        coordinator = try BackgroundProcess.coordinator(endpoint, bench)
        #expect(bench.waitUntilFinished(), "\(coordinator.stderr)\nthe remaining worker: \(staying.stderr)")
        let ledger = try bench.ledger()
        ledger.expectNothingLost("after SIGTERMs")
        #expect(
            try bench.count("SELECT COUNT(*) FROM attempts WHERE errorClass IN ('shutting-down', 'interrupted')") == 0
        )
        FaultReport.record(
            "worker SIGTERM",
            injected: 1,
            affected: finishedInDrain,
            lost: ledger.lost,
            twice: ledger.committedTwice,
            recovery: workerDrain,
            note: "jobs finished while draining; time to exit"
        )
        FaultReport.record(
            "coordinator SIGTERM",
            injected: 1,
            affected: handedBack,
            lost: ledger.lost,
            twice: ledger.committedTwice,
            recovery: coordinatorDrain,
            note: "tasks handed back; time to exit"
        )
        coordinator.signal(SIGTERM)
        #expect(coordinator.wait(seconds: 30) == 0)
        staying.signal(SIGTERM)
        #expect(staying.wait(seconds: 60) == 0, "\(staying.stderr)")
    }

    /// A photo deleted and another changed between the scan and their processing: the
    /// deleted one fails with a message naming the file; the worker reports the changed one
    /// `file-changed`, and the coordinator scans it again at once (PROTOCOL.md) so that it
    /// is done in the same run; every other photo is done.
    @Test func photoDeletedOrChangedAfterTheScan() throws {
        let bench = try FaultBench(count: 30, seed: 33)
        // Nothing watched (--max-watches 0): the worker meets the change, as it does on a
        // network share or before the watcher has seen the change settle.
        let coordinator = try BackgroundProcess.coordinator(
            anyLoopbackPort,
            bench,
            extra: ["--no-exports", "--max-watches", "0"]
        )
        let endpoint = try coordinator.boundEndpoint()
        // No worker yet: the scan queues everything, nothing is processed.
        let expected = bench.files.count * 2
        #expect(
            eventually(seconds: 60) { (try? bench.count("SELECT COUNT(*) FROM tasks")) == expected },
            "\(coordinator.stderr)"
        )
        let deleted = bench.goodFile(1)
        let changed = bench.goodFile(2)
        try FileManager.default.removeItem(atPath: deleted)
        let handle = try #require(FileHandle(forWritingAtPath: changed))
        try handle.seekToEnd()
        handle.write(Data(repeating: 0, count: 16))
        try handle.close()

        let worker = try BackgroundProcess.worker(endpoint, root: bench.photos)
        #expect(bench.waitUntilFinished(), "\(coordinator.stderr)")
        func tasks(_ path: String) throws -> [[String]] {
            try CatalogQuery.rows(
                bench.catalog,
                "SELECT t.state, t.errorClass, t.errorMessage, t.attempts FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path = '\(path)'"
            )
        }
        let gone = try tasks(deleted)
        #expect(
            gone.count == 2
                && gone.allSatisfy {
                    $0[0] == "failed" && $0[1] == "unreadable" && $0[2].contains(deleted)
                        && $0[2].contains("No such file")
                },
            "\(gone)"
        )
        #expect(gone.allSatisfy { $0[3] == "3" }, "unreadable is retried before it fails: \(gone)")
        let moved = try tasks(changed)
        #expect(moved.count == 2 && moved.allSatisfy { $0[0] == "done" && $0[3] == "1" }, "\(moved)")
        // The worker's report is on the books (the job's first kind; its other kind's
        // report found the lease already handed back, `stale`), before the attempts that did the work.
        let history = try CatalogQuery.rows(
            bench.catalog,
            """
            SELECT a.outcome, COALESCE(a.errorClass, ''), COALESCE(a.errorMessage, '') FROM attempts a
            JOIN photos p ON p.id = a.photoId WHERE p.path = '\(changed)' AND a.outcome != 'stale' ORDER BY a.id
            """
        )
        #expect(
            history.count == 3 && history[0][0] == "retry" && history[0][1] == "file-changed"
                && history[0][2].contains(changed)
                && history.suffix(2).allSatisfy { $0[0] == "done" },
            "\(history)"
        )
        let size = try #require(try FileManager.default.attributesOfItem(atPath: changed)[.size] as? Int)
        #expect(
            try bench.count("SELECT size FROM photos WHERE path = '\(changed)'") == size,
            "the photo's row has the new size"
        )
        // The rest goes on: the deleted photo's two tasks are the only good ones not done.
        let ledger = try bench.ledger()
        #expect(
            ledger.lost == 2 && ledger.brokenUnexplained == 0 && ledger.committedTwice == 0 && ledger.unaccounted == 0,
            "\(ledger)"
        )
        FaultReport.record(
            "photo deleted / changed after scan",
            injected: 2,
            affected: 4,
            lost: 0,
            twice: ledger.committedTwice,
            recovery: nil,
            note: "failed unreadable (3 attempts) / file-changed, scanned again and done in the same run"
        )
        coordinator.signal(SIGTERM)
        #expect(coordinator.wait(seconds: 30) == 0)
        worker.signal(SIGTERM)
        #expect(worker.wait(seconds: 60) == 0)
    }

    /// SIGTERM while the coordinator starts, before its service group traps the signal
    /// (here: while it waits for a catalog that another process holds locked), is a
    /// drain, not a death: the coordinator starts, stops at once and exits 0. Before the
    /// fix it ended by the signal's default action (a CI run saw exit -15 in the
    /// conformance suite: a coordinator stopped just after it was started). "It waits
    /// with the handler set" is read from /proc: SIGTERM among the caught signals.
    @Test func sigtermWhileStartingIsAStopNotADeath() throws {
        let directory = try temporaryDirectory()
        let photos = directory.appendingPathComponent("photos")
        let catalog = directory.appendingPathComponent("catalog.sqlite")
        let released = directory.appendingPathComponent("released")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        // The lock holder: an exclusive SQLite transaction on the catalog until `released` exists.
        let holder = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                "-c",
                """
                import os, sqlite3, sys, time
                db = sqlite3.connect(sys.argv[1], isolation_level=None)
                db.execute("BEGIN EXCLUSIVE")
                print("locked", flush=True)
                while not os.path.exists(sys.argv[2]):
                    time.sleep(0.05)
                db.execute("COMMIT")
                """,
                catalog.path, released.path,
            ]
        )
        #expect(holder.waitForOutput(containing: "locked", on: .stdout, seconds: 60), "\(holder.stderr)")
        let coordinator = try BackgroundProcess([
            "coordinator", "--bind", "tcp://127.0.0.1:*", "--insecure", "--catalog", catalog.path, "--no-exports",
            "--log-level", "info", photos.path,
        ])
        #expect(
            eventually(seconds: 60) { coordinator.catches(SIGTERM) },
            "the starting coordinator never set its SIGTERM handler: \(coordinator.stderr)"
        )
        #expect(!coordinator.stderr.contains("listening on"), "still starting: it waits for the catalog")
        coordinator.signal(SIGTERM)
        #expect(FileManager.default.createFile(atPath: released.path, contents: nil))
        #expect(holder.wait(seconds: 60) == 0, "\(holder.stderr)")
        #expect(coordinator.wait(seconds: 60) == 0, "\(coordinator.stderr)")
        #expect(!coordinator.wasSignalled, "ended by SIGTERM's default action: \(coordinator.stderr)")
        #expect(coordinator.stderr.contains("stopped"), "it drained and said so: \(coordinator.stderr)")
    }
}
