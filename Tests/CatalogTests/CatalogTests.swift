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
import GRDB
import PhotomillCore
import Testing

@testable import Catalog

@Suite struct CatalogTests {
    let path: String
    let catalog: Catalog

    init() throws {
        path = try freshCatalogPath("catalog")
        catalog = try Catalog(path: path)
    }

    private func files(_ count: Int, size: Int64 = 100) -> [ScannedFile] {
        (0..<count).map {
            ScannedFile(path: "/photos/p\($0).jpg", size: size, mtimeNs: 1_000, recognition: .media(.jpeg))
        }
    }

    private func lease(_ job: PendingJob, token: String, worker: String = "w1", now: Double = 100) -> Lease {
        Lease(
            photoId: job.photoId,
            kinds: job.kinds,
            token: token,
            worker: worker,
            leasedAt: now,
            expiresAt: now + 60,
            pagedUpdatedAt: job.updatedAt
        )
    }

    private func taskRow(_ photoId: Int64, _ kind: Kind) throws -> Row? {
        try catalog.pool.read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT * FROM tasks WHERE photoId = ? AND kind = ?",
                arguments: [photoId, kind.rawValue]
            )
        }
    }

    @Test func walModeSoReadersNeverBlockTheWriter() throws {
        let mode = try catalog.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test func rescanOfUnchangedTreeQueuesNothing() throws {
        let first = try catalog.record(files(50), kinds: [.hash, .metadata], now: 1)
        #expect(first.added == 50 && first.queuedTasks == 100)
        let again = try catalog.record(files(50), kinds: [.hash, .metadata], now: 2)
        #expect(again.unchanged == 50 && again.added == 0 && again.queuedTasks == 0)
        // Asking for a new kind adds exactly that kind's tasks.
        let more = try catalog.record(files(50), kinds: [.hash, .metadata, .ocr], now: 3)
        #expect(more.queuedTasks == 50)
    }

    @Test func changedFileIsRequeuedAndLosesOldResults() throws {
        _ = try catalog.record(files(1), kinds: [.hash], now: 1)
        let job = try #require(try catalog.dueJobs(now: 10, limit: 10).first)
        var batch = CommitBatch()
        batch.leases = [lease(job, token: "t1")]
        batch.results = [
            ReportedResult(
                result: TaskResult(
                    photoId: job.photoId,
                    kind: .hash,
                    leaseToken: "t1",
                    outcome: .hash(md5: "aa", sha256: "bb"),
                    recipe: "r1"
                ),
                worker: "w1",
                startedAt: 100,
                endedAt: 101
            )
        ]
        _ = try catalog.commit(batch.folded(), now: 101)
        #expect(try taskRow(job.photoId, .hash)?["state"] == "done")

        let changed = try catalog.record(files(1, size: 999), kinds: [.hash], now: 200)
        #expect(changed.changed == 1 && changed.queuedTasks == 1)
        #expect(try taskRow(job.photoId, .hash)?["state"] == "pending")
        let md5 = try catalog.pool.read { db in try String?.fetchOne(db, sql: "SELECT md5 FROM photos") }
        #expect(md5 == .some(nil))
    }

    /// A lease and its successful result in one batch: the task goes straight to done
    /// with its attempt counted, and a lease that failed in the same batch is still written.
    @Test func leaseAndResultInOneBatchCostOneWrite() throws {
        _ = try catalog.record(files(2), kinds: [.hash], now: 1)
        let jobs = try catalog.dueJobs(now: 10, limit: 10)
        #expect(jobs.count == 2)
        var batch = CommitBatch()
        batch.leases = [lease(jobs[0], token: "ok"), lease(jobs[1], token: "bad")]
        batch.results = [
            ReportedResult(
                result: TaskResult(
                    photoId: jobs[0].photoId,
                    kind: .hash,
                    leaseToken: "ok",
                    outcome: .hash(md5: "aa", sha256: "bb"),
                    recipe: "r"
                ),
                worker: "w1",
                startedAt: 100,
                endedAt: 101
            ),
            ReportedResult(
                result: TaskResult(
                    photoId: jobs[1].photoId,
                    kind: .hash,
                    leaseToken: "bad",
                    outcome: .failure(errorClass: .unreadable, message: "gone", retryable: true),
                    recipe: ""
                ),
                worker: "w1",
                startedAt: 100,
                endedAt: 101
            ),
        ]
        let report = try catalog.commit(batch.folded(), now: 101)
        #expect(report.committed == ["ok", "bad"] && report.stale.isEmpty)
        let done = try #require(try taskRow(jobs[0].photoId, .hash))
        #expect(done["state"] as String? == "done")
        #expect(done["attempts"] as Int? == 1)
        #expect(done["leaseToken"] as String? == nil)
        let retried = try #require(try taskRow(jobs[1].photoId, .hash))
        #expect(retried["state"] as String? == "pending")
        #expect(retried["attempts"] as Int? == 1)
        #expect(retried["errorClass"] as String? == "unreadable")
        let outcomes = try catalog.pool.read { db in
            try String.fetchAll(db, sql: "SELECT outcome FROM attempts ORDER BY photoId")
        }
        #expect(outcomes == ["done", "retry"])
    }

    /// The wall clock stepped back an hour between the scan and the lease: a lease written
    /// with its result still commits it (the task is as paged), and an earlier lease time
    /// than the task's last change means nothing.
    @Test func foldedResultSurvivesABackwardClockStep() throws {
        _ = try catalog.record(files(1), kinds: [.hash], now: 5000)
        let job = try #require(try catalog.dueJobs(now: 5001, limit: 10).first)
        var batch = CommitBatch()
        batch.leases = [lease(job, token: "t1", now: 5001 - 3600)]
        batch.results = [
            ReportedResult(
                result: TaskResult(
                    photoId: job.photoId,
                    kind: .hash,
                    leaseToken: "t1",
                    outcome: .hash(md5: "aa", sha256: "bb"),
                    recipe: "r"
                ),
                worker: "w1",
                startedAt: 5001 - 3600,
                endedAt: 5002 - 3600
            )
        ]
        let report = try catalog.commit(batch.folded(), now: 5002 - 3600)
        #expect(report.committed == ["t1"] && report.stale.isEmpty)
        #expect(try taskRow(job.photoId, .hash)?["state"] as String? == "done")
    }

    /// A file re-scanned as changed after its job went out: the result of the old
    /// version is stale even though its lease was never written.
    @Test func unwrittenLeaseOfARequeuedTaskIsStale() throws {
        _ = try catalog.record(files(1), kinds: [.hash], now: 1)
        let job = try #require(try catalog.dueJobs(now: 10, limit: 10).first)
        _ = try catalog.record(files(1, size: 999), kinds: [.hash], now: 150)  // after the lease at 100
        var batch = CommitBatch()
        batch.leases = [lease(job, token: "t1", now: 100)]
        batch.results = [
            ReportedResult(
                result: TaskResult(
                    photoId: job.photoId,
                    kind: .hash,
                    leaseToken: "t1",
                    outcome: .hash(md5: "aa", sha256: "bb"),
                    recipe: "r"
                ),
                worker: "w1",
                startedAt: 100,
                endedAt: 160
            )
        ]
        let report = try catalog.commit(batch.folded(), now: 160)
        #expect(report.stale == ["t1"] && report.committed.isEmpty)
        #expect(try taskRow(job.photoId, .hash)?["state"] == "pending")
    }

    @Test func resultIsCommittedExactlyOnce() throws {
        _ = try catalog.record(files(1), kinds: [.metadata], now: 1)
        let job = try #require(try catalog.dueJobs(now: 10, limit: 10).first)
        var values = PhotoMetadata()
        values.cameraMake = "Acme"
        values.gpsLatitude = -33.5
        let reported = ReportedResult(
            result: TaskResult(
                photoId: job.photoId,
                kind: .metadata,
                leaseToken: "t1",
                outcome: .metadata(values),
                recipe: "r"
            ),
            worker: "w1",
            startedAt: 100,
            endedAt: 101
        )

        var batch = CommitBatch()
        batch.leases = [lease(job, token: "t1")]
        batch.results = [reported]
        let first = try catalog.commit(batch.folded(), now: 101)
        #expect(first.committed == ["t1"] && first.stale.isEmpty)

        // The same result again (a worker re-sending after a lost ACK) is stale.
        var again = CommitBatch()
        again.results = [reported]
        let second = try catalog.commit(again, now: 102)
        #expect(second.committed.isEmpty && second.stale == ["t1"])

        let stored = try catalog.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM metadata").map(PhotoMetadata.init(row:))
        }
        #expect(stored?.cameraMake == "Acme" && stored?.gpsLatitude == -33.5)
        let outcomes = try catalog.pool.read { db in
            try String.fetchAll(db, sql: "SELECT outcome FROM attempts ORDER BY id")
        }
        #expect(outcomes == ["done", "stale"])
    }

    @Test func wrongTokenIsStale() throws {
        _ = try catalog.record(files(1), kinds: [.hash], now: 1)
        let job = try #require(try catalog.dueJobs(now: 10, limit: 10).first)
        var batch = CommitBatch()
        batch.leases = [lease(job, token: "right")]
        batch.results = [
            ReportedResult(
                result: TaskResult(
                    photoId: job.photoId,
                    kind: .hash,
                    leaseToken: "wrong",
                    outcome: .hash(md5: "a", sha256: "b"),
                    recipe: "r"
                ),
                worker: "w2",
                startedAt: 0,
                endedAt: 1
            )
        ]
        let report = try catalog.commit(batch.folded(), now: 101)
        #expect(report.stale == ["wrong"])
        #expect(try taskRow(job.photoId, .hash)?["state"] == "leased")
    }

    @Test func retryableFailureBacksOffThenFails() throws {
        _ = try catalog.record(files(1), kinds: [.ocr], now: 1)
        var now = 100.0
        for attempt in 1...3 {
            let job = try #require(try catalog.dueJobs(now: now, limit: 10).first, "attempt \(attempt)")
            var batch = CommitBatch()
            batch.leases = [lease(job, token: "t\(attempt)", now: now)]
            batch.results = [
                ReportedResult(
                    result: TaskResult(
                        photoId: job.photoId,
                        kind: .ocr,
                        leaseToken: "t\(attempt)",
                        outcome: .failure(errorClass: .ocrFailed, message: "boom", retryable: true),
                        recipe: "r"
                    ),
                    worker: "w1",
                    startedAt: now,
                    endedAt: now + 1
                )
            ]
            _ = try catalog.commit(batch.folded(), now: now + 1)
            let row = try #require(try taskRow(job.photoId, .ocr))
            if attempt < 3 {
                #expect(row["state"] == "pending")
                let notBefore: Double = row["notBefore"]
                // base 2 s · 2^(attempt-1), ±50 %.
                let expected = 2 * pow(2, Double(attempt - 1))
                #expect(notBefore >= now + 1 + expected * 0.5 && notBefore <= now + 1 + expected * 1.5)
                // Not offered again before its backoff has passed.
                #expect(try catalog.dueJobs(now: now + 1, limit: 10).isEmpty)
                now = notBefore
            } else {
                #expect(row["state"] == "failed")
                #expect(row["errorClass"] == "ocr-failed")
                #expect(row["attempts"] == 3)
            }
        }
    }

    @Test func lostWorkerReleasesLeaseAndLastAttemptFailsAsCrashed() throws {
        _ = try catalog.record(files(1), kinds: [.hash, .metadata], now: 1)
        var now = 100.0
        for attempt in 1...3 {
            let job = try #require(try catalog.dueJobs(now: now, limit: 10).first)
            #expect(job.kinds == [.hash, .metadata])
            var batch = CommitBatch()
            let granted = lease(job, token: "t\(attempt)", now: now)
            batch.leases = [granted]
            batch.releases = [Release(lease: granted, reason: .workerLost, message: "worker w1 stopped answering")]
            let report = try catalog.commit(batch.folded(), now: now)
            if attempt < 3 { #expect(report.retriedTasks == 2) } else { #expect(report.failedTasks == 2) }
            now += 1000
        }
        #expect(try taskRow(1, .hash)?["errorClass"] == "worker-lost")
        let lost = try catalog.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM attempts WHERE outcome = 'worker-lost'")
        }
        #expect(lost == 6)
    }

    /// One backoff for all kinds of a lost lease, so that they travel as one job again
    /// (a poison photo would otherwise cost one crash per kind per attempt).
    @Test func kindsOfALostLeaseComeBackTogether() throws {
        _ = try catalog.record(files(1), kinds: [.hash, .metadata], now: 1)
        let job = try #require(try catalog.dueJobs(now: 100, limit: 10).first)
        var batch = CommitBatch()
        let granted = lease(job, token: "t1")
        batch.leases = [granted]
        batch.releases = [Release(lease: granted, reason: .workerLost, message: "worker w1 stopped answering")]
        _ = try catalog.commit(batch.folded(), now: 100)
        let due = try catalog.pool.read { db in try Double.fetchSet(db, sql: "SELECT notBefore FROM tasks") }
        #expect(due.count == 1, "\(due)")
        let again = try catalog.dueJobs(now: try #require(due.first), limit: 10)
        #expect(again.map(\.kinds) == [[.hash, .metadata]])
    }

    @Test func droppedMessageCountsAddUpAcrossCommits() throws {
        var batch = CommitBatch()
        batch.violations = ["wrong-signature": 3, "unknown-job": 1]
        _ = try catalog.commit(batch.folded(), now: 1)
        batch.violations = ["wrong-signature": 2]
        _ = try catalog.commit(batch.folded(), now: 2)
        #expect(try catalog.status().violations == ["wrong-signature": 5, "unknown-job": 1])
    }

    @Test func hashAndMetadataTravelTogetherThumbnailAndOCRAlone() throws {
        _ = try catalog.record(files(2), kinds: Set(Kind.allCases), now: 1)
        let jobs = try catalog.dueJobs(now: 10, limit: 10)
        #expect(
            jobs.map { $0.kinds.sorted() } == [
                [.hash, .metadata], [.hash, .metadata], [.thumbnail, .similarity], [.thumbnail, .similarity],
                [.ocr], [.ocr],
            ]
        )
        #expect(
            try catalog.pendingJobs(tier: 0, after: jobs[0].position, now: 10, limit: 10).map(\.photoId) == [
                jobs[1].photoId
            ]
        )
    }

    @Test func ocrTextIsFullTextSearchable() throws {
        _ = try catalog.record(files(1), kinds: [.ocr], now: 1)
        let job = try #require(try catalog.dueJobs(now: 10, limit: 1).first)
        var batch = CommitBatch()
        batch.leases = [lease(job, token: "t")]
        batch.results = [
            ReportedResult(
                result: TaskResult(
                    photoId: job.photoId,
                    kind: .ocr,
                    leaseToken: "t",
                    outcome: .ocr(text: "Harbour lighthouse at dusk", confidence: 91, language: "eng"),
                    recipe: "r"
                ),
                worker: "w",
                startedAt: 0,
                endedAt: 1
            )
        ]
        _ = try catalog.commit(batch.folded(), now: 2)
        let hits = try catalog.pool.read { db in
            try Int64.fetchAll(db, sql: "SELECT rowid FROM ocr_fts WHERE ocr_fts MATCH 'lighthouse'")
        }
        #expect(hits == [job.photoId])
    }

    /// `task_counts` equals the tasks counted one by one after every kind of change of
    /// state: Catalog counts those itself (StateChanges), so a path that forgot to would
    /// show here.
    @Test func countsFollowEveryChangeOfState() throws {
        func result(_ job: PendingJob, _ kind: Kind, token: String, _ outcome: TaskOutcome) -> ReportedResult {
            ReportedResult(
                result: TaskResult(photoId: job.photoId, kind: kind, leaseToken: token, outcome: outcome, recipe: "r"),
                worker: "w1",
                startedAt: 100,
                endedAt: 101
            )
        }
        let hash = TaskOutcome.hash(md5: "aa", sha256: "bb")
        let metadata = TaskOutcome.metadata(PhotoMetadata())
        _ = try catalog.record(files(4), kinds: [.hash, .metadata], now: 1)
        try expectCountsAgree(catalog, "after the scan")
        let jobs = try catalog.dueJobs(now: 10, limit: 10)
        #expect(jobs.count == 4)

        // pending → done (lease and result together); pending → leased; leased → pending
        // (retryable failure); pending → done beside it.
        var batch = CommitBatch()
        batch.leases = [lease(jobs[0], token: "a"), lease(jobs[1], token: "b"), lease(jobs[2], token: "c")]
        batch.results = [
            result(jobs[0], .hash, token: "a", hash), result(jobs[0], .metadata, token: "a", metadata),
            result(jobs[2], .hash, token: "c", .failure(errorClass: .unreadable, message: "busy", retryable: true)),
            result(jobs[2], .metadata, token: "c", metadata),
        ]
        _ = try catalog.commit(batch.folded(), now: 101)
        try expectCountsAgree(catalog, "after leases with results")

        // leased → done; leased → failed; a stale result changes nothing.
        batch = CommitBatch()
        batch.results = [
            result(jobs[1], .hash, token: "b", hash),
            result(jobs[1], .metadata, token: "b", .failure(errorClass: .corrupt, message: "bad", retryable: false)),
            result(jobs[3], .hash, token: "nobody's", hash),
        ]
        #expect(try catalog.commit(batch.folded(), now: 102).stale == ["nobody's"])
        try expectCountsAgree(catalog, "after results of written leases")

        // leased → pending (a lost worker), then leased → failed on the last attempt.
        for attempt in 1...3 {
            let job = try #require(
                try catalog.pendingJobs(tier: 0, after: jobs[2].position, now: 10_000, limit: 1).first
            )
            batch = CommitBatch()
            batch.leases = [lease(job, token: "d\(attempt)")]
            _ = try catalog.commit(batch.folded(), now: 103)
            batch = CommitBatch()
            batch.releases = [Release(lease: lease(job, token: "d\(attempt)"), reason: .workerLost, message: "gone")]
            _ = try catalog.commit(batch.folded(), now: 104)
            try expectCountsAgree(catalog, "after release \(attempt)")
        }
        #expect(try taskRow(jobs[3].photoId, .hash)?["state"] == "failed")

        // done → failed (unreadable at a re-scan); done and failed → pending (changed file).
        try catalog.recordUnreadable(path: "/photos/p0.jpg", message: "vanished", kinds: [.hash, .metadata], now: 200)
        try expectCountsAgree(catalog, "after an unreadable file")
        var changed = files(4)
        changed[1].size = 999
        _ = try catalog.record(changed, kinds: [.hash, .metadata], now: 201)
        try expectCountsAgree(catalog, "after a changed file")

        // failed → pending (retry); done → pending (reprocess).
        #expect(try catalog.retryFailed(matching: TaskFilter(), now: 202).values.reduce(0, +) == 4)
        try expectCountsAgree(catalog, "after retry")
        #expect(try catalog.reprocess(matching: TaskFilter(), currentRecipes: nil, now: 203).values.reduce(0, +) == 1)
        try expectCountsAgree(catalog, "after reprocess")
        #expect(try catalog.unfinishedTaskCount() == 8)
    }

    @Test func readOnlyOpenOfMissingCatalogSaysSo() {
        #expect(throws: CatalogError.self) { try Catalog(path: "/nonexistent/catalog.sqlite", mode: .readOnly) }
        do {
            _ = try Catalog(path: "/nonexistent/catalog.sqlite", mode: .readOnly)
        } catch {
            #expect(error.code == .missing)
            #expect(error.description.contains("/nonexistent/catalog.sqlite"))
        }
    }

    @Test func newerSchemaIsRefused() throws {
        try catalog.pool.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
        }
        do {
            _ = try Catalog(path: path, mode: .readOnly)
            Issue.record("opened a catalog of a newer schema")
        } catch {
            #expect(error.code == .newerSchema)
        }
    }
}
