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
import PhotomillTestSupport
import Testing

@testable import Catalog

/// A path for a new catalog in a folder of its own under the temporary directory.
func freshCatalogPath(_ label: String) throws -> String {
    try temporaryDirectory(label).appendingPathComponent("catalog.sqlite").path
}

/// `task_counts` (kept by the catalog code and two triggers) agrees with counting the
/// tasks themselves, and there are tasks.
func expectCountsAgree(
    _ catalog: Catalog,
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    try catalog.pool.read { db in
        let counted = try Row.fetchAll(
            db,
            sql: "SELECT kind, state, COUNT(*) AS n FROM tasks GROUP BY kind, state ORDER BY kind, state"
        )
        let kept = try Row.fetchAll(db, sql: "SELECT kind, state, n FROM task_counts WHERE n != 0 ORDER BY kind, state")
        #expect(counted == kept, comment, sourceLocation: sourceLocation)
        #expect(!counted.isEmpty, comment, sourceLocation: sourceLocation)
    }
}

extension Catalog {
    /// Every due job, tier by tier (cheap kinds first), as the scheduler's queues take them.
    func dueJobs(now: Double, limit: Int, kinds: Set<Kind> = Set(Kind.allCases)) throws -> [PendingJob] {
        try Kind.tiers.flatMap { try pendingJobs(tier: $0, now: now, limit: limit, kinds: kinds) }
    }
}

extension CommitBatch {
    /// The batch as the coordinator's `LeaseTable` hands it over when a lease's result comes
    /// before the lease is written: each successful result of a lease of the batch (one from
    /// a page: with `pagedUpdatedAt`) carries its task's `updatedAt` as paged, and the lease
    /// is written only for its other kinds. (The scheduler's tests check the table does so.)
    func folded() -> CommitBatch {
        var batch = self
        var folded: [TaskKey: String] = [:]
        for index in batch.results.indices where batch.results[index].isSuccess {
            let result = batch.results[index].result
            guard let lease = leases.first(where: { $0.token == result.leaseToken && !$0.pagedUpdatedAt.isEmpty }),
                let position = lease.kinds.firstIndex(of: result.kind)
            else { continue }
            batch.results[index].pagedUpdatedAt = lease.pagedUpdatedAt[position]
            folded[TaskKey(photoId: result.photoId, kind: result.kind)] = lease.token
        }
        batch.leases = leases.compactMap { lease in
            var lease = lease
            lease.kinds.removeAll { folded[TaskKey(photoId: lease.photoId, kind: $0)] == lease.token }
            return lease.kinds.isEmpty ? nil : lease
        }
        return batch
    }
}
