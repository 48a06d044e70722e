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
import Testing

@testable import Catalog

/// Why pending tasks wait besides the workers: a file too large for byte transfer, a
/// backoff after a failure. Expected figures by hand from how the catalog is built.
@Suite struct HeldBackTests {
    @Test func oversizedFilesAndBackoffsAreCountedWithTheirLimitAndTime() throws {
        let catalog = try Catalog(path: try freshCatalogPath("held-back"))
        let limit: Int64 = 768 << 20
        let files = [
            ScannedFile(path: "/photos/huge.jpg", size: 800 << 20, mtimeNs: 1, recognition: .media(.jpeg)),
            ScannedFile(path: "/photos/edge.jpg", size: limit, mtimeNs: 1, recognition: .media(.jpeg)),
            ScannedFile(path: "/photos/small.jpg", size: 100, mtimeNs: 1, recognition: .media(.jpeg)),
        ]
        _ = try catalog.record(files, kinds: [.hash, .thumbnail], now: 1)
        let jobs = try catalog.pendingJobs(tier: 0, now: 10, limit: 10)
        let small = try #require(jobs.first { $0.path == "/photos/small.jpg" })

        // small.jpg's hash fails once, retryably: with base 10 s capped at 5 s, due at 105 exactly.
        var lease = CommitBatch()
        lease.leases = [
            Lease(photoId: small.photoId, kinds: [.hash], token: "t", worker: "w", leasedAt: 99, expiresAt: 160)
        ]
        _ = try catalog.commit(lease, now: 99)
        var failure = CommitBatch()
        failure.results = [
            ReportedResult(
                result: TaskResult(
                    photoId: small.photoId,
                    kind: .hash,
                    leaseToken: "t",
                    outcome: .failure(errorClass: .unreadable, message: "/photos/small.jpg: busy", retryable: true),
                    recipe: ""
                ),
                worker: "w",
                startedAt: 99,
                endedAt: 100
            )
        ]
        _ = try catalog.commit(failure, now: 100, retry: RetryPolicy(baseDelay: 10, maxDelay: 5))

        let held = try catalog.heldBack(now: 101, bytesLimit: limit)
        // huge.jpg alone is over the limit (edge.jpg is at it: it still travels).
        #expect(
            held.oversized == [
                .hash: .init(tasks: 1, largestBytes: 800 << 20), .thumbnail: .init(tasks: 1, largestBytes: 800 << 20),
            ]
        )
        #expect(held.backingOff == [.hash: .init(tasks: 1, firstDue: 105)])
        #expect(
            try catalog.heldBack(now: 105, bytesLimit: limit).backingOff == [:],
            "due at 105: no longer backing off"
        )

        // Photos marked missing are left out.
        let huge = try #require(jobs.first { $0.path == "/photos/huge.jpg" }).photoId
        _ = try catalog.markMissing(
            under: "/photos",
            lastId: catalog.lastPhotoId(),
            found: { $0 != huge },
            unlisted: [],
            now: 102
        )
        #expect(try catalog.heldBack(now: 101, bytesLimit: limit).oversized == [:])
    }
}
