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
internal import GRDB
import PhotomillCore

extension Catalog {
    /// Pending work of one tier whose backoff has passed, after `position` in the tier's
    /// order (rank, then photo): the kinds of a photo in the tier travel as one job (hash
    /// and metadata share one read of the file), thumbnails and OCR as jobs of their own
    /// (docs/catalog.md, "The order of work"). Only tasks of `kinds` (those some connected
    /// worker offers and no operator paused; the others wait), and none of a missing photo.
    public func pendingJobs(
        tier: Int,
        after position: QueuePosition = .start,
        now: Double,
        limit: Int,
        kinds: Set<Kind> = Set(Kind.allCases)
    ) throws(CatalogError) -> [PendingJob] {
        let wanted = kinds.filter { $0.tier == tier }
        guard !wanted.isEmpty else { return [] }
        return try read { db in
            // Along tasks_queue from the position: one range of the index, whatever the
            // position (the plan is checked by SteeringCatalogTests), where a filter on the
            // position would read every task before it on each page.
            let names = wanted.map { "'\($0.rawValue)'" }.sorted().joined(separator: ",")
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT t.photoId, t.kind, p.path, p.size, p.mtimeNs, t.updatedAt, p.sidecarPath, p.sidecarSize,
                            p.sidecarMtimeNs, t.rank
                        FROM tasks t INDEXED BY tasks_queue JOIN photos p ON p.id = t.photoId
                        WHERE t.state = 'pending' AND t.tier = ? AND (t.rank, t.photoId) > (?, ?) AND t.notBefore <= ?
                            AND t.kind IN (\(names)) AND p.missingAt IS NULL
                        ORDER BY t.rank, t.photoId
                        LIMIT ?
                        """
                ),
                arguments: [tier, position.rank, position.photoId, now, limit * wanted.count]
            )
            var jobs: [PendingJob] = []
            var current: PendingJob?
            // Columns by position (as selected above): a lookup by name per value cost more
            // than the rest of the row.
            while let row = try rows.next() {
                let id: Int64 = row[0]
                let rank: Int64 = row[9]
                if current?.photoId != id || current?.rank != rank {
                    if let current, !current.kinds.isEmpty { jobs.append(current) }
                    current = nil
                    if jobs.count >= limit { return jobs }
                    let sidecar = (row[6] as String?).map { Sidecar(path: $0, size: row[7], mtimeNs: row[8]) }
                    current = PendingJob(
                        photoId: id,
                        path: row[2],
                        size: row[3],
                        mtimeNs: row[4],
                        kinds: [],
                        sidecar: sidecar,
                        rank: rank
                    )
                }
                guard let kind = Kind(rawValue: row[1]) else { continue }
                current!.add(kind, updatedAt: row[5])
            }
            if let current, !current.kinds.isEmpty { jobs.append(current) }
            return jobs
        }
    }

    /// Every task currently leased: what a restarted coordinator must wait for or expire.
    public func outstandingLeases() throws(CatalogError) -> [Lease] {
        try read { db in
            var leases: [String: Lease] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT photoId, kind, leaseToken, leasedTo, leasedAt, leaseExpires FROM tasks WHERE state = 'leased'
                    """
            ) {
                let token: String = row["leaseToken"] ?? ""
                guard let kind = Kind(rawValue: row["kind"]) else { continue }
                leases[
                    token,
                    default: Lease(
                        photoId: row["photoId"],
                        kinds: [],
                        token: token,
                        worker: row["leasedTo"] ?? "",
                        leasedAt: row["leasedAt"] ?? 0,
                        expiresAt: row["leaseExpires"] ?? 0
                    )
                ].kinds.append(kind)
            }
            return Array(leases.values)
        }
    }
}
