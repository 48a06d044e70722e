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
            Steering(requeueMark: try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM requeues") ?? 0, paused: try pauses(db))
        }
    }

    /// Pauses `kinds` (a kind paused already keeps its reason and time); returns the kinds
    /// it paused now.
    @discardableResult
    public func pause(_ kinds: Set<Kind>, reason: String, now: Double) throws(CatalogError) -> Set<Kind> {
        try write { db in
            var paused: Set<Kind> = []
            for kind in kinds {
                try db.execute(sql: "INSERT OR IGNORE INTO pauses (kind, reason, pausedAt) VALUES (?, ?, ?)",
                               arguments: [kind.rawValue, reason, now])
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
            for kind in kinds {
                try db.execute(sql: "DELETE FROM pauses WHERE kind = ?", arguments: [kind.rawValue])
                if db.changesCount == 1 { resumed.insert(kind) }
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
            var counts: [Kind: Int] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT kind, COUNT(*) AS n FROM tasks WHERE state = 'pending' AND \(matching) GROUP BY kind
                """, arguments: [pathGlob]) {
                if let kind = Kind(rawValue: row["kind"]) { counts[kind] = row["n"] }
            }
            try db.execute(sql: "INSERT INTO requeues (at, command, filter, tasks) VALUES (?, 'prioritize', ?, ?)",
                           arguments: [now, "path=" + pathGlob, counts.values.reduce(0, +)])
            // Leased and failed tasks too: a lease that comes back, or a retry, stays in front.
            try db.execute(sql: "UPDATE tasks SET rank = ? WHERE state != 'done' AND \(matching)",
                           arguments: [TaskRank.prioritized(db.lastInsertedRowID), pathGlob])
            return counts
        }
    }

    func pauses(_ db: Database) throws -> [Kind: Pause] {
        var paused: [Kind: Pause] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT kind, reason, pausedAt FROM pauses") {
            if let kind = Kind(rawValue: row["kind"]) { paused[kind] = Pause(reason: row["reason"], since: row["pausedAt"]) }
        }
        return paused
    }
}
