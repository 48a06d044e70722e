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

/// A commit of a large batch, written set-based (many rows a statement, in chunks of
/// 256, 64, 16, 4 and 1): the exactly-once check still holds row by row. Every expected
/// figure below is counted by hand from how the batch is built.
@Suite struct CatalogCommitTests {
    @Test func largeMixedBatchIsSettledRowByRow() throws {
        let catalog = try Catalog(path: try freshCatalogPath("commit"))
        let files = (1...300).map {
            ScannedFile(path: "/photos/p\($0).jpg", size: 100, mtimeNs: 1_000, recognition: .media(.jpeg))
        }
        _ = try catalog.record(files, kinds: [.hash, .metadata, .thumbnail, .ocr], now: 1)
        // Each photo pages as three jobs, one per tier: hash + metadata, thumbnail, OCR.
        let jobs = try Kind.tiers.flatMap { try catalog.pendingJobs(tier: $0, now: 10, limit: 300) }
        #expect(jobs.count == 900)
        func lease(_ job: PendingJob, skew: Double = 0) -> Lease {
            Lease(
                photoId: job.photoId,
                kinds: job.kinds,
                token: token(job),
                worker: "w",
                leasedAt: 100,
                expiresAt: 160,
                pagedUpdatedAt: job.updatedAt.map { $0 + skew }
            )
        }
        func token(_ job: PendingJob) -> String { "t\(job.photoId)-\(job.kinds[0].rawValue)" }
        func result(_ photo: Int64, _ kind: Kind, token: String) -> ReportedResult {
            let outcome: TaskOutcome =
                switch kind {
                case .hash: .hash(md5: "m\(photo)", sha256: "s\(photo)")
                case .metadata:
                    .metadata(
                        {
                            var values = PhotoMetadata()
                            values.cameraMake = "Make \(photo)"
                            return values
                        }()
                    )
                case .thumbnail: .thumbnail(width: 2, height: 1, jpeg: Data([0xFF, 0xD8, UInt8(photo % 256)]))
                case .ocr: .ocr(text: "word\(photo)", confidence: 90, language: "eng")
                case .similarity: .similarity(PerceptualHash(UInt64(photo)))
                }
            return ReportedResult(
                result: TaskResult(
                    photoId: photo,
                    kind: kind,
                    leaseToken: token,
                    outcome: outcome,
                    recipe: "\(kind.rawValue)/1"
                ),
                worker: "w",
                startedAt: 100,
                endedAt: 101
            )
        }

        // Photos 1–150: leased in one commit, their results in the next.
        var first = CommitBatch()
        first.leases = jobs.filter { $0.photoId <= 150 }.map { lease($0) }
        _ = try catalog.commit(first, now: 100)

        var batch = CommitBatch()
        for job in jobs {
            for kind in job.kinds {
                // Hashes of photos 10, 20 … 150 come under a token that is not theirs: stale, still leased.
                let wrong = job.photoId <= 150 && job.photoId % 10 == 0 && kind == .hash
                if job.photoId == 5 && kind == .hash {
                    // Photo 5's hash is reported twice: first under an old token (stale), then its own.
                    batch.results.append(result(5, .hash, token: "old"))
                }
                if job.photoId == 3 && kind == .metadata {
                    batch.results.append(
                        ReportedResult(
                            result: TaskResult(
                                photoId: 3,
                                kind: .metadata,
                                leaseToken: token(job),
                                outcome: .failure(
                                    errorClass: .unreadable,
                                    message: "/photos/p3.jpg: gone",
                                    retryable: true
                                ),
                                recipe: ""
                            ),
                            worker: "w",
                            startedAt: 100,
                            endedAt: 101
                        )
                    )
                    continue
                }
                batch.results.append(result(job.photoId, kind, token: wrong ? "wrong" : token(job)))
            }
        }
        // Photos 151–300: lease and result in the same batch (folded); for 154, 161 … 294
        // (the 21 multiples of 7) the task changed since it was paged: stale, still pending.
        batch.leases = jobs.filter { $0.photoId > 150 }.map { lease($0, skew: $0.photoId % 7 == 0 ? 1 : 0) }
        let report = try catalog.commit(batch.folded(), now: 101)

        let count = { (sql: String) in try catalog.pool.read { db in try Int.fetchOne(db, sql: sql) ?? -1 } }
        // 600 - 15 wrong hashes - 1 failure, and 600 - 21 × 4.
        #expect(try count("SELECT COUNT(*) FROM tasks WHERE state = 'done'") == 584 + 516)
        #expect(try count("SELECT COUNT(*) FROM tasks WHERE state = 'leased'") == 15)
        #expect(try count("SELECT COUNT(*) FROM tasks WHERE state = 'pending'") == 84 + 1)
        #expect(
            try count(
                "SELECT COUNT(*) FROM tasks WHERE state = 'pending' AND errorClass = 'unreadable' AND attempts = 1"
            ) == 1
        )
        #expect(try count("SELECT COUNT(*) FROM tasks WHERE state = 'done' AND attempts != 1") == 0)
        #expect(try count("SELECT COUNT(*) FROM attempts WHERE outcome = 'done'") == 1_100)
        #expect(try count("SELECT COUNT(*) FROM attempts WHERE outcome = 'stale'") == 15 + 84 + 1)
        #expect(try count("SELECT COUNT(*) FROM attempts WHERE outcome = 'retry'") == 1)
        #expect(
            try count(
                "SELECT COUNT(*) FROM attempts WHERE photoId = 5 AND kind = 'hash' AND outcome = 'stale' AND leaseToken = 'old'"
            ) == 1
        )
        #expect(try count("SELECT COUNT(*) FROM tasks WHERE photoId = 5 AND kind = 'hash' AND state = 'done'") == 1)
        // Payloads only for what was committed: hashes of 150 - 15 + 150 - 21 photos, each its own.
        #expect(try count("SELECT COUNT(*) FROM photos WHERE md5 IS NOT NULL") == 264)
        #expect(try count("SELECT COUNT(*) FROM photos WHERE md5 IS NOT NULL AND md5 != 'm' || id") == 0)
        #expect(try count("SELECT COUNT(*) FROM photos WHERE id IN (10, 154) AND md5 IS NULL") == 2)
        #expect(try count("SELECT COUNT(*) FROM metadata") == 149 + 129)
        #expect(try count("SELECT COUNT(*) FROM metadata WHERE cameraMake != 'Make ' || photoId") == 0)
        #expect(try count("SELECT COUNT(*) FROM thumbnails") == 150 + 129)
        #expect(
            try count("SELECT COUNT(*) FROM thumbnails WHERE hex(jpeg) != 'FFD8' || printf('%02X', photoId % 256)") == 0
        )
        #expect(try count("SELECT COUNT(*) FROM ocr") == 150 + 129)
        var query = PhotoQuery()
        query.words = ["word200"]
        #expect(try catalog.search(query).map(\.path) == ["/photos/p200.jpg"], "the OCR text indexed")
        #expect(
            report.stale.count == 2 + 63,
            "\"wrong\", \"old\", and the three tokens of each of the 21 changed photos"
        )
        try expectCountsAgree(catalog)
    }
}

/// `forget --missing` while a worker still holds a result for the photo (it re-sends
/// results until ACKed, to the next coordinator too): the commit goes through.
@Suite struct ForgottenPhotoCommitTests {
    @Test func aLateResultOfAForgottenPhotoIsDiscardedAndCountedNotAFailedCommit() throws {
        let path = try freshCatalogPath("forgotten")
        let catalog = try Catalog(path: path)
        let files = (1...3).map {
            ScannedFile(path: "/photos/p\($0).jpg", size: 100, mtimeNs: 1_000, recognition: .media(.jpeg))
        }
        _ = try catalog.record(files, kinds: [.hash], now: 1)
        let jobs = try catalog.pendingJobs(tier: 0, now: 10, limit: 10)
        var leases = CommitBatch()
        leases.leases = jobs.map {
            Lease(
                photoId: $0.photoId,
                kinds: $0.kinds,
                token: "t\($0.photoId)",
                worker: "w",
                leasedAt: 100,
                expiresAt: 160
            )
        }
        _ = try catalog.commit(leases, now: 100)
        // Photo 1 leaves the disk; the scan marks it missing; `forget --missing` deletes it.
        let gone = try #require(jobs.first { $0.path == "/photos/p1.jpg" }).photoId
        #expect(
            try catalog.markMissing(
                under: "/photos",
                lastId: catalog.lastPhotoId(),
                found: { $0 != gone },
                unlisted: [],
                now: 110
            ) == 1
        )
        #expect(try catalog.forgetMissing() == ["/photos/p1.jpg"])

        var late = CommitBatch()
        for job in jobs {
            late.results.append(
                ReportedResult(
                    result: TaskResult(
                        photoId: job.photoId,
                        kind: .hash,
                        leaseToken: "t\(job.photoId)",
                        outcome: .hash(md5: "m", sha256: "s"),
                        recipe: "hash/1"
                    ),
                    worker: "w",
                    startedAt: 100,
                    endedAt: 101
                )
            )
        }
        // And a failure of it under an older token, which is stale too.
        late.results.append(
            ReportedResult(
                result: TaskResult(
                    photoId: gone,
                    kind: .hash,
                    leaseToken: "older",
                    outcome: .failure(errorClass: .unreadable, message: "/photos/p1.jpg: gone", retryable: true),
                    recipe: ""
                ),
                worker: "w",
                startedAt: 90,
                endedAt: 91
            )
        )
        let report = try catalog.commit(late, now: 120)
        #expect(report.stale == ["t\(gone)", "older"])
        #expect(report.forgottenResults == 2)
        #expect(report.committed.count == 2, "the other two photos' results are committed in the same batch")
        // Read with Python's sqlite3 (not photomill's code): no attempts row without its photo.
        let orphans = try sqlite3(path, "SELECT COUNT(*) FROM attempts WHERE photoId NOT IN (SELECT id FROM photos)")
        #expect(orphans == "0")
        #expect(try sqlite3(path, "SELECT COUNT(*) FROM attempts WHERE outcome = 'done'") == "2")
        #expect(try sqlite3(path, "PRAGMA foreign_key_check") == "")
    }
}

/// One query's rows through Python's sqlite3, `|`-separated, one line each.
private func sqlite3(_ path: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [
        "-c",
        "import sqlite3, sys; print('\\n'.join('|'.join(map(str, r)) for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])))",
        path, sql,
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
