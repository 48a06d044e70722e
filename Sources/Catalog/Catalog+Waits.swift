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

internal import GRDB
import PhotomillCore

extension Catalog {
    /// Replaces the reasons why tasks wait (kind → reason; empty: nothing waits for a
    /// worker), with a commit (`CommitBatch.waits`).
    static func replaceWaits(_ db: Database, _ reasons: [Kind: WaitReason]) throws {
        try db.execute(sql: "DELETE FROM waits")
        for (kind, reason) in reasons {
            try db.execute(
                sql: "INSERT INTO waits (kind, reason, detail) VALUES (?, ?, ?)",
                arguments: [kind.rawValue, reason.code, reason.detail]
            )
        }
    }

    /// Reasons of a code this version does not know (a newer coordinator's) are left out.
    func waits(_ db: Database) throws -> [Kind: WaitReason] {
        var reasons: [Kind: WaitReason] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT kind, reason, detail FROM waits") {
            guard let kind = Kind(rawValue: row["kind"]),
                let reason = WaitReason(code: row["reason"], detail: row["detail"])
            else { continue }
            reasons[kind] = reason
        }
        return reasons
    }
}

/// Pending tasks a connected worker offers to take that wait all the same, by kind.
public struct HeldBackTasks: Sendable, Equatable {
    public struct Oversized: Sendable, Equatable {
        public var tasks: Int
        public var largestBytes: Int64
    }
    public struct BackingOff: Sendable, Equatable {
        public var tasks: Int
        /// Wall-clock seconds when the first of them is due again.
        public var firstDue: Double
    }
    /// Of files larger than the coordinator sends as bytes: only a worker that reads their
    /// folder itself (`--root`) can take them.
    public var oversized: [Kind: Oversized] = [:]
    /// After a failed attempt, until their backoff has passed.
    public var backingOff: [Kind: BackingOff] = [:]
}

extension Catalog {
    /// Why pending tasks wait besides the workers (`photomill status`, `run`'s summary).
    /// The large files through `photos_size` (few); the backoffs through `tasks_queue` (pending tasks only),
    /// a pass over the pending tasks: for `status` and a run's end, not for every progress
    /// line. Photos marked missing are left out.
    public func heldBack(now: Double, bytesLimit: Int64) throws(CatalogError) -> HeldBackTasks {
        try read { db in
            var held = HeldBackTasks()
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT t.kind, COUNT(*) AS n, MAX(p.size) AS largest FROM photos p INDEXED BY photos_size JOIN tasks t ON t.photoId = p.id
                    WHERE p.size > ? AND t.state = 'pending' AND p.missingAt IS NULL GROUP BY t.kind
                    """,
                arguments: [bytesLimit]
            ) {
                guard let kind = Kind(rawValue: row["kind"]) else { continue }
                held.oversized[kind] = .init(tasks: row["n"], largestBytes: row["largest"])
            }
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT t.kind, COUNT(*) AS n, MIN(t.notBefore) AS due FROM tasks t INDEXED BY tasks_queue JOIN photos p ON p.id = t.photoId
                    WHERE t.state = 'pending' AND t.notBefore > ? AND p.missingAt IS NULL GROUP BY t.kind
                    """,
                arguments: [now]
            ) {
                guard let kind = Kind(rawValue: row["kind"]) else { continue }
                held.backingOff[kind] = .init(tasks: row["n"], firstDue: row["due"])
            }
            return held
        }
    }
}
