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

/// A kind an operator paused (`photomill pause`, the dashboard): a running coordinator
/// leases none of its tasks until `resume`; jobs already out finish.
public struct Pause: Sendable, Hashable, Codable {
    public var reason: String
    /// When it was paused (wall clock).
    public var since: Double

    public init(reason: String, since: Double) {
        self.reason = reason
        self.since = since
    }
}

/// What operators changed that a running coordinator must follow, read in one go twice a
/// second (`Catalog.steering()`).
public struct Steering: Sendable, Hashable {
    /// The last `requeues` row: `retry`, `reprocess` or `prioritize` put work behind the
    /// scheduler's positions when it moves.
    public var requeueMark: Int64 = 0
    public var paused: [Kind: Pause] = [:]

    public init(requeueMark: Int64 = 0, paused: [Kind: Pause] = [:]) {
        self.requeueMark = requeueMark
        self.paused = paused
    }
}

extension Catalog {
    public func steering() throws(CatalogError) -> Steering {
        try read { db in
            Steering(
                requeueMark: try RequeueRecord.select(max(RequeueRecord.Columns.id), as: Int64.self).fetchOne(db) ?? 0,
                paused: try pauses(db)
            )
        }
    }

    /// Pauses `kinds` (a kind paused already keeps its reason and time); returns the kinds
    /// it paused now.
    @discardableResult
    public func pause(_ kinds: Set<Kind>, reason: String, now: Double) throws(CatalogError) -> Set<Kind> {
        try write { db in
            var paused: Set<Kind> = []
            for kind in kinds {
                try PauseRecord(kind: kind.rawValue, reason: reason, pausedAt: now).insert(db, onConflict: .ignore)
                if db.changesCount == 1 { paused.insert(kind) }
            }
            return paused
        }
    }

    /// Resumes `kinds`; returns those that were paused.
    @discardableResult
    public func resume(_ kinds: Set<Kind>) throws(CatalogError) -> Set<Kind> {
        try write { db in
            var resumed: Set<Kind> = []
            for kind in kinds where try PauseRecord.deleteOne(db, key: kind.rawValue) {
                resumed.insert(kind)
            }
            return resumed
        }
    }

    /// Moves the photos whose path matches `pathGlob` (an SQLite GLOB, as `--path` takes)
    /// to the front of their tiers, ahead of every earlier prioritization: their unfinished
    /// tasks get the rank of a new `requeues` row, which also tells a running coordinator
    /// to page again from the front. Returns the pending tasks it moved, per kind.
    public func prioritize(pathGlob: String, now: Double) throws(CatalogError) -> [Kind: Int] {
        try write { db in
            // Missing photos are left out, and so the excluded (`--exclude`, `.photomillignore`): one rule for the scan and every filter.
            let matching = "photoId IN (SELECT id FROM photos WHERE path GLOB ? AND missingAt IS NULL)"
            let counts = try Self.kindCounts(
                db,
                sql: """
                    SELECT kind AS key, COUNT(*) AS n FROM tasks WHERE state = 'pending' AND \(matching) GROUP BY kind
                    """,
                arguments: [pathGlob]
            )
            var requeue = RequeueRecord(
                at: now,
                command: "prioritize",
                filter: "path=" + pathGlob,
                tasks: counts.values.reduce(0, +)
            )
            try requeue.insert(db)
            // Leased and failed tasks too: a lease that comes back, or a retry, stays in front.
            try db.execute(
                sql: "UPDATE tasks SET rank = ? WHERE state != 'done' AND \(matching)",
                arguments: [TaskRank.prioritized(requeue.id ?? db.lastInsertedRowID), pathGlob]
            )
            return counts
        }
    }

    func pauses(_ db: Database) throws -> [Kind: Pause] {
        var paused: [Kind: Pause] = [:]
        for record in try PauseRecord.fetchAll(db) {
            if let kind = Kind(rawValue: record.kind) {
                paused[kind] = Pause(reason: record.reason, since: record.pausedAt)
            }
        }
        return paused
    }

    /// `SELECT kind AS key, COUNT(*) AS n …` as counts per kind; a kind this code does not
    /// know is left out.
    static func kindCounts(_ db: Database, sql: String, arguments: StatementArguments) throws -> [Kind: Int] {
        var counts: [Kind: Int] = [:]
        for group in try GroupCount<String>.fetchAll(db, sql: sql, arguments: arguments) {
            if let kind = Kind(rawValue: group.key) { counts[kind] = group.n }
        }
        return counts
    }
}
