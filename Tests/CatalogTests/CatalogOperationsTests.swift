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

/// The queries behind status, failed, retry, reprocess, search and duplicates, on a real
/// SQLite file, with expected values worked out by hand.
@Suite struct CatalogOperationsTests {
    let catalog: Catalog

    init() throws {
        catalog = try Catalog(path: freshCatalogPath("catalog-ops"))
    }

    private func files(_ count: Int, folder: String = "photos") -> [ScannedFile] {
        (0..<count).map {
            ScannedFile(path: "/\(folder)/p\($0).jpg", size: 100, mtimeNs: 1_000, recognition: .media(.jpeg))
        }
    }

    /// Leases every due job and reports `outcome(kind)` for each kind, started at
    /// `startedAt` and ended at the `endedAt` of its photo.
    private func finish(
        now: Double,
        startedAt: Double,
        endedAt: (Int64) -> Double,
        outcome: (Int64, Kind) -> TaskOutcome,
        recipe: String = "r1"
    ) throws {
        var batch = CommitBatch()
        for job in try catalog.dueJobs(now: now, limit: 1000) {
            let token = "t\(job.photoId)-\(job.kinds.map(\.rawValue).joined())-\(now)"
            batch.leases.append(
                Lease(
                    photoId: job.photoId,
                    kinds: job.kinds,
                    token: token,
                    worker: "w1",
                    leasedAt: startedAt,
                    expiresAt: startedAt + 600
                )
            )
            for kind in job.kinds {
                batch.results.append(
                    ReportedResult(
                        result: TaskResult(
                            photoId: job.photoId,
                            kind: kind,
                            leaseToken: token,
                            outcome: outcome(job.photoId, kind),
                            recipe: recipe
                        ),
                        worker: "w1",
                        startedAt: startedAt,
                        endedAt: endedAt(job.photoId)
                    )
                )
            }
        }
        _ = try catalog.commit(batch, now: now)
    }

    private func count(_ sql: String) throws -> Int {
        try catalog.pool.read { db in try Int.fetchOne(db, sql: sql) ?? -1 }
    }

    /// 40 photos; 30 hashed in the last 30 s (leased 30 s ago), so the rate is 30/30 = 1
    /// per second and the 10 left take 10 s. Attempts older than a minute do not count.
    @Test func rateAndETAComeFromTheLastMinuteOfAttempts() throws {
        let now = 10_000.0
        _ = try catalog.record(files(30), kinds: [.hash], now: 1)
        // These 30 finished long ago: outside the window.
        try finish(now: 100, startedAt: 90, endedAt: { _ in 100 }, outcome: { _, _ in .hash(md5: "a", sha256: "b") })
        #expect(try catalog.status(now: now).rates[.hash] == nil)

        let more = (30..<70).map {
            ScannedFile(path: "/photos/p\($0).jpg", size: 100, mtimeNs: 1_000, recognition: .media(.jpeg))
        }
        _ = try catalog.record(more, kinds: [.hash], now: now - 40)
        var batch = CommitBatch()
        let jobs = try catalog.dueJobs(now: now, limit: 1000)
        #expect(jobs.count == 40)
        for (index, job) in jobs.enumerated() where index < 30 {
            let token = "late\(job.photoId)"
            batch.leases.append(
                Lease(
                    photoId: job.photoId,
                    kinds: [.hash],
                    token: token,
                    worker: "w1",
                    leasedAt: now - 30,
                    expiresAt: now + 600
                )
            )
            batch.results.append(
                ReportedResult(
                    result: TaskResult(
                        photoId: job.photoId,
                        kind: .hash,
                        leaseToken: token,
                        outcome: .hash(md5: "c", sha256: "d"),
                        recipe: "r"
                    ),
                    worker: "w1",
                    startedAt: now - 30,
                    endedAt: now - 30 + Double(index + 1)
                )
            )
        }
        _ = try catalog.commit(batch, now: now - 1)

        let status = try catalog.status(now: now)
        #expect(
            status.count(.hash, .done) == 60 && status.count(.hash, .pending) == 10 && status.count(.hash, .leased) == 0
        )
        try expectCountsAgree(catalog)
        let rate = try #require(status.rates[.hash])
        #expect(rate.finished == 30)
        #expect(abs(rate.perSecond - 1.0) < 1e-9)
        #expect(status.remaining(.hash) == 10)
        #expect(abs((status.etaSeconds(.hash) ?? -1) - 10) < 1e-9)
        #expect(abs((status.etaSeconds ?? -1) - 10) < 1e-9)

        // Counting only the 10 most recent attempts (they ended 1 s apart): 10 in the last 10 s.
        let sampled = try catalog.pool.read { db in try Catalog.rates(db, now: now, sample: 10) }
        #expect(abs((sampled[.hash]?.perSecond ?? 0) - 1.0) < 1e-9 && sampled[.hash]?.finished == 60)

        // Nothing finished recently, something remains: the ETA is unknown, not 0 or ∞.
        let later = try catalog.status(now: now + 3600)
        #expect(later.etaSeconds(.hash) == nil && later.etaSeconds == nil)
    }

    /// The window is measured from the earliest start when work began less than a minute ago.
    @Test func rateOfAYoungRunUsesTheTimeSinceItsFirstLease() throws {
        let now = 5_000.0
        _ = try catalog.record(files(8), kinds: [.metadata], now: now - 10)
        try finish(
            now: now,
            startedAt: now - 4,
            endedAt: { _ in now - 1 },
            outcome: { _, _ in .metadata(PhotoMetadata()) }
        )
        let rate = try #require(try catalog.status(now: now).rates[.metadata])
        #expect(rate.finished == 8 && abs(rate.perSecond - 2.0) < 1e-9)  // 8 in 4 s
        #expect(try catalog.status(now: now).etaSeconds == 0)
    }

    @Test func retryMovesMatchingFailuresBackWithAFreshBudget() throws {
        _ = try catalog.record(files(3) + files(2, folder: "other"), kinds: [.hash, .thumbnail], now: 1)
        try finish(
            now: 10,
            startedAt: 5,
            endedAt: { _ in 10 },
            outcome: { _, kind in
                kind == .thumbnail
                    ? .failure(errorClass: .corrupt, message: "damaged", retryable: false)
                    : .failure(errorClass: .unreadable, message: "gone", retryable: false)
            }
        )
        #expect(try catalog.failedTasks().count == 10)
        #expect(try catalog.failedTasks(matching: TaskFilter(kinds: [.thumbnail])).count == 5)
        #expect(try catalog.failedTasks(matching: TaskFilter(errorClass: .unreadable)).allSatisfy { $0.kind == .hash })
        let other = try catalog.failedTasks(matching: TaskFilter(kinds: [.thumbnail], pathGlob: "/other/*"))
        #expect(other.map(\.path) == ["/other/p0.jpg", "/other/p1.jpg"])
        #expect(
            other.allSatisfy {
                $0.worker == "w1" && $0.attempts == 1 && $0.failedAt == 10 && $0.errorMessage == "damaged"
            }
        )

        let filter = TaskFilter(kinds: [.thumbnail], errorClass: .corrupt, pathGlob: "/photos/*")
        #expect(try catalog.retryFailed(matching: filter, dryRun: true, now: 20) == [.thumbnail: 3])
        #expect(try catalog.steering().requeueMark == 0, "a dry run changes nothing")
        #expect(try count("SELECT COUNT(*) FROM tasks WHERE state = 'failed'") == 10)

        #expect(try catalog.retryFailed(matching: filter, now: 20) == [.thumbnail: 3])
        #expect(
            try count(
                "SELECT COUNT(*) FROM tasks WHERE state = 'pending' AND kind = 'thumbnail' AND attempts = 0 AND notBefore = 0"
            ) == 3
        )
        #expect(try count("SELECT COUNT(*) FROM tasks WHERE state = 'failed'") == 7)
        #expect(try catalog.steering().requeueMark == 1)
        let jobs = try catalog.dueJobs(now: 20, limit: 10)
        #expect(jobs.map(\.kinds) == [[.thumbnail], [.thumbnail], [.thumbnail]])
        // The history stays.
        #expect(try count("SELECT COUNT(*) FROM attempts WHERE outcome = 'failed'") == 10)
        try expectCountsAgree(catalog)
    }

    /// PROTOCOL.md, "Recipes": a foreign worker's recipe of the current version and
    /// parameters is current, whatever keys it adds and whatever their order.
    @Test func reprocessOutdatedJudgesForeignRecipesByVersionAndParameters() throws {
        _ = try catalog.record(files(4), kinds: [.thumbnail], now: 1)
        try finish(
            now: 10,
            startedAt: 5,
            endedAt: { _ in 10 },
            outcome: { _, _ in .thumbnail(width: 1, height: 1, jpeg: Data([1])) },
            recipe: "x"
        )
        try catalog.pool.write { db in
            for (id, recipe) in [
                (1, "thumbnail/2 size=256 q=80 impl=pyworker-0.1"), (2, "thumbnail/2 q=80 size=256"),
                (3, "thumbnail/1 size=256 q=80"), (4, "thumbnail/2 size=512 q=80"),
            ] {
                try db.execute(sql: "UPDATE tasks SET recipe = ? WHERE photoId = ?", arguments: [recipe, id])
            }
        }
        #expect(
            try catalog.reprocess(
                matching: TaskFilter(),
                currentRecipes: [.thumbnail: "thumbnail/2 size=256 q=80"],
                now: 20
            )
                == [.thumbnail: 2]
        )
        let pending = try catalog.pool.read { db in
            try Int64.fetchAll(db, sql: "SELECT photoId FROM tasks WHERE state = 'pending' ORDER BY photoId")
        }
        #expect(pending == [3, 4])
    }

    @Test func reprocessOutdatedRequeuesExactlyTheResultsOfAnotherRecipe() throws {
        _ = try catalog.record(files(4), kinds: [.thumbnail, .ocr], now: 1)
        try finish(
            now: 10,
            startedAt: 5,
            endedAt: { _ in 10 },
            outcome: { _, kind in
                kind == .ocr
                    ? .ocr(text: "hello", confidence: 90, language: "eng")
                    : .thumbnail(width: 1, height: 1, jpeg: Data([1]))
            },
            recipe: "current"
        )
        try catalog.pool.write { db in
            try db.execute(sql: "UPDATE tasks SET recipe = 'old' WHERE kind = 'thumbnail' AND photoId IN (1, 3)")
        }
        let recipes: [Kind: String] = [.thumbnail: "current", .ocr: "current"]
        #expect(
            try catalog.reprocess(matching: TaskFilter(), currentRecipes: recipes, dryRun: true, now: 20) == [
                .thumbnail: 2
            ]
        )
        #expect(try catalog.reprocess(matching: TaskFilter(), currentRecipes: recipes, now: 20) == [.thumbnail: 2])
        let pending = try catalog.pool.read { db in
            try Int64.fetchAll(db, sql: "SELECT photoId FROM tasks WHERE state = 'pending' ORDER BY photoId")
        }
        #expect(pending == [1, 3])
        #expect(try count("SELECT COUNT(*) FROM thumbnails") == 4, "old results stay until replaced")
        // Again: nothing is outdated any more among the done ones.
        #expect(try catalog.reprocess(matching: TaskFilter(), currentRecipes: recipes, now: 21).isEmpty)
        #expect(try catalog.reprocess(matching: TaskFilter(kinds: [.ocr]), currentRecipes: nil, now: 22) == [.ocr: 4])
        #expect(try catalog.steering().requeueMark == 2)
        try expectCountsAgree(catalog)
        // A changed file re-queues its tasks; an unreadable one fails them.
        _ = try catalog.record(
            [ScannedFile(path: "/photos/p0.jpg", size: 999, mtimeNs: 5, recognition: .media(.jpeg))],
            kinds: [.thumbnail, .ocr],
            now: 30
        )
        try catalog.recordUnreadable(
            path: "/photos/p1.jpg",
            message: "gone",
            kinds: [.thumbnail, .ocr, .hash],
            now: 31
        )
        try expectCountsAgree(catalog)
        try catalog.pool.write { db in try db.execute(sql: "DELETE FROM photos WHERE path = '/photos/p2.jpg'") }
        try expectCountsAgree(catalog, "a deleted photo's tasks go with it")
    }

    @Test func searchCombinesTextCameraDateAndPlace() throws {
        _ = try catalog.record(files(4), kinds: [.metadata, .ocr], now: 1)
        let places: [Int64: (Double, Double, String, String)] = [
            1: (-33.8568, 151.2153, "2019-07-14T18:22:05+10:00", "Canon EOS 5D"),  // Sydney Opera House
            2: (-33.8523, 151.2108, "2019-07-15T09:00:00", "NIKON D750"),  // Harbour Bridge, 0.64 km away
            3: (48.8584, 2.2945, "2021-01-02T10:00:00", "Canon EOS R"),  // Paris
            4: (51.5007, -0.1246, "2018-12-31T23:59:59", "iPhone 13"),  // London
        ]
        let texts: [Int64: String] = [
            1: "Opera tickets, row F", 2: "ferry to the opera house", 3: "Tour Eiffel",
            4: "Big Ben: \"quotes\" AND NOT",
        ]
        try finish(
            now: 10,
            startedAt: 5,
            endedAt: { _ in 10 },
            outcome: { id, kind in
                guard kind == .metadata else { return .ocr(text: texts[id]!, confidence: 90, language: "eng") }
                var values = PhotoMetadata()
                let place = places[id]!
                values.gpsLatitude = place.0
                values.gpsLongitude = place.1
                values.dateTaken = place.2
                values.cameraModel = place.3
                return .metadata(values)
            }
        )
        func paths(_ configure: (inout PhotoQuery) -> Void) throws -> [String] {
            var query = PhotoQuery()
            configure(&query)
            return try catalog.search(query).map(\.path)
        }
        #expect(try Set(paths { $0.words = ["OPERA"] }) == ["/photos/p0.jpg", "/photos/p1.jpg"])
        #expect(try paths { $0.words = ["opera", "ferry"] } == ["/photos/p1.jpg"])
        #expect(try paths { $0.words = ["tick*"] } == ["/photos/p0.jpg"])
        // Query syntax in the words is just text.
        #expect(try paths { $0.words = ["\"quotes\"", "AND", "NOT"] } == ["/photos/p3.jpg"])
        #expect(try paths { $0.camera = "canon eos" } == ["/photos/p0.jpg", "/photos/p2.jpg"])
        #expect(
            try paths {
                $0.from = "2019-07-14"
                $0.to = "2019-07-14"
            } == ["/photos/p0.jpg"]
        )
        #expect(try paths { $0.from = "2019-07-14T18:22:06" } == ["/photos/p1.jpg", "/photos/p2.jpg"])
        #expect(try paths { $0.to = "2018-12-31T23:59:59" } == ["/photos/p3.jpg"])
        // Opera House → Harbour Bridge is 0.64 km (haversine by hand).
        #expect(try paths { $0.near = (-33.8568, 151.2153, 0.5) } == ["/photos/p0.jpg"])
        #expect(try paths { $0.near = (-33.8568, 151.2153, 0.7) } == ["/photos/p0.jpg", "/photos/p1.jpg"])
        // Paris → London is about 340 km.
        #expect(try paths { $0.near = (48.8584, 2.2945, 345) } == ["/photos/p2.jpg", "/photos/p3.jpg"])
        #expect(try paths { $0.near = (48.8584, 2.2945, 335) } == ["/photos/p2.jpg"])
        #expect(abs(greatCircleKilometres(-33.8568, 151.2153, -33.8523, 151.2108) - 0.643) < 0.01)

        // Reprocessed OCR replaces the words the index knows, not only the stored text.
        _ = try catalog.reprocess(
            matching: TaskFilter(kinds: [.ocr], pathGlob: "/photos/p0.jpg"),
            currentRecipes: nil,
            now: 20
        )
        try finish(
            now: 30,
            startedAt: 25,
            endedAt: { _ in 30 },
            outcome: { _, _ in .ocr(text: "sold out", confidence: 80, language: "eng") }
        )
        #expect(try paths { $0.words = ["tickets"] } == [])
        #expect(try paths { $0.words = ["sold"] } == ["/photos/p0.jpg"])
    }

    @Test func duplicatesGroupSameContentLargestFirst() throws {
        _ = try catalog.record(
            [
                ScannedFile(path: "/a/1.jpg", size: 10, mtimeNs: 1, recognition: .media(.jpeg)),
                ScannedFile(path: "/b/1.jpg", size: 10, mtimeNs: 1, recognition: .media(.jpeg)),
                ScannedFile(path: "/a/2.jpg", size: 99, mtimeNs: 1, recognition: .media(.jpeg)),
                ScannedFile(path: "/c/2.jpg", size: 99, mtimeNs: 1, recognition: .media(.jpeg)),
                ScannedFile(path: "/b/2.jpg", size: 99, mtimeNs: 1, recognition: .media(.jpeg)),
                ScannedFile(path: "/a/3.jpg", size: 5, mtimeNs: 1, recognition: .media(.jpeg)),
            ],
            kinds: [.hash],
            now: 1
        )
        let md5s = [
            "/a/1.jpg": "m1", "/b/1.jpg": "m1", "/a/2.jpg": "m2", "/c/2.jpg": "m2", "/b/2.jpg": "m2", "/a/3.jpg": "m3",
        ]
        try catalog.pool.write { db in
            for (path, md5) in md5s {
                try db.execute(sql: "UPDATE photos SET md5 = ? WHERE path = ?", arguments: [md5, path])
            }
        }
        let groups = try catalog.duplicates()
        // Paths lstat(2) cannot see are files of their own (IntegrationTests' FilesThatLeaveTests has hard links).
        #expect(
            groups == [
                DuplicateGroup(md5: "m2", size: 99, paths: ["/a/2.jpg", "/b/2.jpg", "/c/2.jpg"], copies: 3),
                DuplicateGroup(md5: "m1", size: 10, paths: ["/a/1.jpg", "/b/1.jpg"], copies: 2),
            ]
        )
    }
}
