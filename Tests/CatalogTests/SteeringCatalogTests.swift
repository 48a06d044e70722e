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

/// Pause, resume, prioritize and the order pending work is paged in, on a real catalog file.
/// Expected orders are the rules written out by hand (docs/catalog.md, "The order of work").
@Suite struct SteeringCatalogTests {
    let catalog: Catalog

    init() throws {
        catalog = try Catalog(path: try freshCatalogPath("steering"))
    }

    private func files(_ names: [String]) -> [ScannedFile] {
        names.map { ScannedFile(path: $0, size: 100, mtimeNs: 1_000, recognition: .media(.jpeg)) }
    }

    @Test("a later scan's new and changed files are paged ahead of the earlier backlog")
    func newAndChangedFilesFirst() throws {
        _ = try catalog.record(files(["/lib/a.jpg", "/lib/b.jpg"]), kinds: [.hash, .metadata], now: 1_000)
        _ = try catalog.record(files(["/lib/c.jpg"]), kinds: [.hash, .metadata], now: 2_000)
        #expect(try catalog.dueJobs(now: 3_000, limit: 10).map(\.path) == ["/lib/c.jpg", "/lib/a.jpg", "/lib/b.jpg"])
        // b changes: a later scan re-queues it, ahead of everything.
        let changed = ScannedFile(path: "/lib/b.jpg", size: 200, mtimeNs: 2_000, recognition: .media(.jpeg))
        _ = try catalog.record([changed], kinds: [.hash, .metadata], now: 3_000)
        #expect(try catalog.dueJobs(now: 4_000, limit: 10).map(\.path) == ["/lib/b.jpg", "/lib/c.jpg", "/lib/a.jpg"])
    }

    @Test(
        "prioritize moves a folder's unfinished tasks to the front of every tier, the latest folder first, and signals a requeue"
    )
    func prioritizeAFolder() throws {
        let names = ["/lib/2018/a.jpg", "/lib/2019/b.jpg", "/lib/2019/c.jpg", "/lib/2020/d.jpg"]
        _ = try catalog.record(files(names), kinds: [.hash, .metadata, .ocr], now: 1_000)
        let mark = try catalog.steering().requeueMark
        // 2 photos × 3 kinds, all pending.
        #expect(try catalog.prioritize(pathGlob: "/lib/2019/*", now: 1_100) == [.hash: 2, .metadata: 2, .ocr: 2])
        #expect(try catalog.steering().requeueMark > mark, "a running coordinator pages again from the front")
        #expect(
            try catalog.pendingJobs(tier: 0, now: 1_200, limit: 10).map(\.path)
                == ["/lib/2019/b.jpg", "/lib/2019/c.jpg", "/lib/2018/a.jpg", "/lib/2020/d.jpg"]
        )
        #expect(
            try catalog.pendingJobs(tier: 2, now: 1_200, limit: 10).map(\.path).prefix(2) == [
                "/lib/2019/b.jpg", "/lib/2019/c.jpg",
            ]
        )
        #expect(try catalog.pendingJobs(tier: 0, now: 1_200, limit: 1).allSatisfy { TaskRank.isPrioritized($0.rank) })
        // A later prioritization goes ahead of the earlier one.
        _ = try catalog.prioritize(pathGlob: "/lib/2020/*", now: 1_300)
        #expect(
            try catalog.pendingJobs(tier: 0, now: 1_400, limit: 10).map(\.path)
                == ["/lib/2020/d.jpg", "/lib/2019/b.jpg", "/lib/2019/c.jpg", "/lib/2018/a.jpg"]
        )
        #expect(try catalog.prioritize(pathGlob: "/elsewhere/*", now: 1_500) == [:])
    }

    @Test("pause keeps the first reason and time; resume says what it resumed; both are in status")
    func pauseAndResume() throws {
        #expect(try catalog.pause([.ocr, .thumbnail], reason: "thumbnails first", now: 10) == [.ocr, .thumbnail])
        #expect(try catalog.pause([.ocr], reason: "again", now: 20) == [])
        #expect(
            try catalog.steering().paused == [
                .ocr: Pause(reason: "thumbnails first", since: 10),
                .thumbnail: Pause(reason: "thumbnails first", since: 10),
            ]
        )
        #expect(try catalog.resume([.thumbnail, .hash]) == [.thumbnail])
        #expect(try catalog.status().paused == [.ocr: Pause(reason: "thumbnails first", since: 10)])
        #expect(try catalog.figures().paused.keys.sorted() == [.ocr])
    }

    @Test("a run's end: pending tasks of a paused kind do not count as unfinished, leased ones do")
    func unfinishedLeavesPausedWorkOut() throws {
        _ = try catalog.record(files(["/lib/a.jpg", "/lib/b.jpg"]), kinds: [.hash, .ocr], now: 1)
        var batch = CommitBatch()
        let job = try #require(try catalog.pendingJobs(tier: Kind.ocr.tier, now: 10, limit: 1).first)
        batch.leases = [
            Lease(photoId: job.photoId, kinds: job.kinds, token: "t", worker: "w", leasedAt: 10, expiresAt: 70)
        ]
        _ = try catalog.commit(batch, now: 10)
        #expect(try catalog.unfinishedTaskCount() == 4)
        #expect(try catalog.unfinishedTaskCount(paused: [.ocr]) == 3, "2 hash pending + 1 OCR leased")
        #expect(try catalog.unfinishedTaskCount(paused: [.ocr, .hash]) == 1)
    }

    /// Paging stays a range of one index wherever the position is: what keeps it cheap on
    /// a catalog of 10^6 tasks (docs/benchmarks.md has the times).
    @Test("a page is a range scan of tasks_queue")
    func pageUsesTheQueueIndex() throws {
        _ = try catalog.record(files(["/lib/a.jpg"]), kinds: Set(Kind.allCases), now: 1)
        let details = try catalog.pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    EXPLAIN QUERY PLAN SELECT t.photoId FROM tasks t INDEXED BY tasks_queue JOIN photos p ON p.id = t.photoId
                    WHERE t.state = 'pending' AND t.tier = ? AND (t.rank, t.photoId) > (?, ?) AND t.notBefore <= ?
                        AND t.kind IN ('hash','metadata') ORDER BY t.rank, t.photoId LIMIT ?
                    """,
                arguments: [0, 0, 0, 10, 10]
            ).map { $0["detail"] as String }
        }
        #expect(details.contains("SEARCH t USING INDEX tasks_queue (tier=? AND (rank,photoId)>(?,?))"), "\(details)")
        #expect(!details.contains { $0.contains("TEMP B-TREE") }, "no sort: \(details)")
    }

    @Test("the generated tier column agrees with Kind.tier for every kind")
    func tierColumnAgrees() throws {
        _ = try catalog.record(files(["/lib/a.jpg"]), kinds: Set(Kind.allCases), now: 1)
        let tiers = try catalog.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT kind, tier FROM tasks").map { ($0["kind"] as String, $0["tier"] as Int) }
        }
        #expect(tiers.count == Kind.allCases.count)
        for (name, tier) in tiers { #expect(Kind(rawValue: name)?.tier == tier, "\(name)") }
    }
}
