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

/// One coordinator per catalog, and what a catalog in use by others does to one
/// (docs/reliability.md, "Accidents"): a second `run` or `coordinator` is refused naming
/// the holder, readers are never kept out, a killed holder's lock is taken at once, an
/// interrupted run says so (130) and the next one says what it resumed, another process's
/// write lock is waited out, and a clean exit leaves one file.
@Suite(.serialized, .ownThread) struct OneCoordinatorTests {
    /// `run` over `bench`, 1 worker of 1 slot, each job slowed by `hang` seconds; with
    /// `holding`, the job of that photo holds until `releaseFile(bench)` exists (or its worker ends with the run).
    private func slowRun(
        _ bench: FaultBench,
        hang: Double = 0.3,
        holding: String? = nil,
        exports: URL? = nil
    ) throws -> BackgroundProcess {
        let held =
            holding.map {
                ($0 as NSString).lastPathComponent + ":@" + releaseFile(bench).path + ","
            } ?? ""
        return try BackgroundProcess(
            [
                "run", bench.photos.path, "--workers", "1", "--slots", "1", "--kinds", "hash,metadata",
                "--catalog", bench.catalog.path,
            ] + (exports.map { ["--exports", $0.path] } ?? ["--no-exports"]),
            environment: ["PHOTOMILL_FAULT_HANG_ON": held + "*:\(hang)"]
        )
    }

    /// The file whose creation lets `slowRun`'s held job go on.
    private func releaseFile(_ bench: FaultBench) -> URL { bench.directory.appendingPathComponent("release-held-job") }

    private func waitForWork(_ bench: FaultBench, done: Int = 3) -> Bool {
        eventually(seconds: 90) { bench.doneAttempts >= done }
    }

    /// The files beside the catalog that SQLite and the lock make: none after a clean exit.
    private func companions(_ bench: FaultBench) -> [String] {
        ["-wal", "-shm", "-journal", "-lock"].filter { FileManager.default.fileExists(atPath: bench.catalog.path + $0) }
    }

    @Test func secondCoordinatorIsRefusedNamingTheHolderAndAKilledOnesLockIsTaken() throws {
        let bench = try FaultBench(count: 24, seed: 61)
        // However slow the machine, the kill below comes mid-run: one job holds until then.
        let first = try slowRun(bench, holding: bench.goodFile(5))
        #expect(waitForWork(bench), "\(first.stderr)")
        let host = try Tool.hostName()
        let common = ["--catalog", bench.catalog.path, "--no-exports", "--kinds", "hash,metadata"]
        let refusals = [
            ["run", bench.photos.path, "--workers", "1"] + common,
            ["coordinator", "--bind", "ipc://\(bench.directory.path)/second.sock", bench.photos.path] + common,
            ["forget", "--missing", "--catalog", bench.catalog.path],
        ]
        for arguments in refusals {
            let refused = try PhotomillBinary.run(arguments)
            #expect(refused.status == 75, "\(arguments[0]): \(refused.stderr)")
            #expect(
                refused.stderr.contains("in use by another coordinator")
                    && refused.stderr.contains("pid \(first.pid) on \(host)")
                    && refused.stderr.contains(bench.catalog.path),
                "\(arguments[0]): \(refused.stderr)"
            )
        }
        // Readers are never kept out.
        let status = try PhotomillBinary.run(["status", "--json", "--catalog", bench.catalog.path])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(
            try CatalogQuery.count(bench.catalog, "SELECT COUNT(*) FROM workers") == 1,
            "only the first run's worker ever registered"
        )

        // kill -9: the kernel drops the lock (its worker dies with it: NoOrphanTests).
        first.signal(SIGKILL)
        _ = first.wait(seconds: 10)
        let left = bench.unfinished
        let next = try PhotomillBinary.run(["run", bench.photos.path, "--workers", "1"] + common)
        #expect(next.status == 1, "broken samples fail: \(next.stdout) \(next.stderr)")
        #expect(next.stdout.contains("resumed: \(left) tasks"), "\(next.stdout)")
        let ledger = try bench.ledger()
        ledger.expectNothingLost("lock taken after kill -9")
        #expect(ledger.stale == 0, "no second coordinator did the same work: \(ledger)")
        #expect(companions(bench) == [], "a clean exit leaves one file")
    }

    /// SIGINT: `run` hands back what is out and exits 130, not 1 ("some tasks failed"); the
    /// next run's summary counts what it did, though its scan queued nothing.
    /// However slow the machine, the SIGINT comes after the scan (the next run queues
    /// nothing) and with work left: the last photo's job holds until it is handed back.
    @Test func interruptedRunExits130AndTheNextSaysWhatItResumed() throws {
        let bench = try FaultBench(count: 8, seed: 62)
        let held = try #require(bench.files.last { !bench.broken.contains($0) })
        let first = try slowRun(bench, holding: held)
        let heldLeased = """
            SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId
            WHERE p.path = '\(held.replacingOccurrences(of: "'", with: "''"))' AND t.state = 'leased'
            """
        #expect(
            eventually(seconds: 120) {
                (try? bench.count("SELECT COUNT(*) FROM photos")) ?? -1 >= bench.files.count
                    && (try? bench.count(heldLeased)) ?? 0 > 0
            },
            "\(first.stderr)"
        )
        first.signal(SIGINT)
        #expect(first.wait(seconds: 30) == 130, "\(first.stderr)")
        #expect(first.stderr.contains("interrupted"), "\(first.stderr)")
        let left = bench.unfinished
        #expect(left > 0)
        let next = try PhotomillBinary.run([
            "run", bench.photos.path, "--workers", "1", "--kinds", "hash,metadata",
            "--catalog", bench.catalog.path, "--no-exports",
        ])
        #expect(next.status == 0, "\(next.stdout) \(next.stderr)")
        #expect(
            next.stdout.contains("0 tasks queued") && next.stdout.contains("resumed: \(left) tasks")
                && next.stdout.contains("this run: \(left) tasks done, 0 failed"),
            "\(next.stdout)"
        )
        try bench.ledger().expectNothingLost("interrupted, then resumed")
    }

    /// Another process holds the catalog's write lock for 15 s (longer than SQLite's usual
    /// 10 s timeout): the run waits, says so, goes on, and ends with nothing lost.
    @Test func catalogLockedByAnotherProcessIsWaitedOut() throws {
        let bench = try FaultBench(count: 9, seed: 63, copies: 3)
        let run = try slowRun(bench, hang: 0.2)
        #expect(waitForWork(bench, done: 2))
        let locker = try lockCatalog(bench.catalog, seconds: 15)
        let held = Stopwatch()
        #expect(run.wait(seconds: 180) == 0, "\(run.stderr)")
        #expect(held.seconds > 14, "the run waited for the lock")
        #expect(run.stderr.contains("locked by another process") && run.stderr.contains("going on"), "\(run.stderr)")
        #expect(!run.stderr.contains("database is locked"), "\(run.stderr)")
        locker.wait(seconds: 60)
        try bench.ledger().expectNothingLost("catalog locked for 15 s")
    }

    /// `backup` while a run writes: a whole, consistent copy in one file, never replacing one.
    /// However slow the machine, the run ends after both backups: a catalog another process
    /// has open when the run closes it stays in WAL mode for that process (`Catalog.close`),
    /// and each `backup` opens it, the refused one too. The last good photo's job holds
    /// until the backups are done.
    @Test func backupCopiesALiveCatalogIntoOneFile() throws {
        let bench = try FaultBench(count: 12, seed: 64)
        let held = try #require(bench.files.last { !bench.broken.contains($0) })
        let run = try slowRun(bench, holding: held)
        // After the scan (files younger than the settle window wait for it; the copy's task
        // count below needs them all), while the work goes on.
        #expect(
            eventually(seconds: 120) {
                (try? bench.count("SELECT COUNT(*) FROM photos")) ?? -1 >= bench.files.count && bench.doneAttempts >= 3
            },
            "\(run.stderr)"
        )
        let folder = try temporaryDirectory()
        let copy = folder.appendingPathComponent("copy.sqlite")
        let backup = try PhotomillBinary.run(["backup", copy.path, "--catalog", bench.catalog.path])
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["copy.sqlite"])
        #expect(try CatalogQuery.rows(copy, "PRAGMA integrity_check") == [["ok"]])
        #expect(try CatalogQuery.rows(copy, "PRAGMA journal_mode") == [["delete"]])
        // "PMIL" as a big-endian 32-bit integer: SQLite's application_id of a photomill catalog.
        #expect(try CatalogQuery.count(copy, "PRAGMA application_id") == 0x50_4D_49_4C)
        #expect(try CatalogQuery.count(copy, "SELECT COUNT(*) FROM tasks") == bench.files.count * 2)
        let before = try Tool.md5(copy.path)
        let again = try PhotomillBinary.run(["backup", copy.path, "--catalog", bench.catalog.path])
        #expect(again.status == 73 && again.stderr.contains(copy.path), "\(again.stderr)")
        #expect(try Tool.md5(copy.path) == before)
        #expect(FileManager.default.createFile(atPath: releaseFile(bench).path, contents: nil))
        #expect(run.wait(seconds: 120) == 1, "broken samples fail: \(run.stderr)")
        #expect(companions(bench) == [])
        #expect(try CatalogQuery.rows(bench.catalog, "PRAGMA journal_mode") == [["delete"]])
    }
}
