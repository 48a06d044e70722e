import Foundation
internal import GRDB
import PhotomillCore

/// Counts per kind and state, and the workers, as `photomill status` shows them.
public struct CatalogStatus: Sendable {
    public var counts: [Kind: [TaskState: Int]] = [:]
    public var photos = 0
    /// Photos by what they are; a photo of an older catalog not yet rescanned has no type.
    public var mediaTypes: [MediaType: Int] = [:]
    /// Files the scans found that are not media (docs/operations.md).
    public var skippedFiles = 0
    public var workers: [WorkerRow] = []
    /// Kind → why its pending tasks wait (no connected worker offers it), as the coordinator last saw.
    public var waiting: [Kind: String] = [:]
    /// Kinds an operator paused (`photomill pause`): no task of theirs is leased.
    public var paused: [Kind: Pause] = [:]
    /// Messages the coordinator dropped (malformed, unexpected, from strangers), by reason.
    public var violations: [String: Int] = [:]
    /// Tasks finished per kind over the last minute (see `Catalog.rates`).
    public var rates: [Kind: KindRate] = [:]
    /// When the status was read.
    public var readAt: Double = 0

    public func count(_ kind: Kind, _ state: TaskState) -> Int { counts[kind]?[state] ?? 0 }
    public func total(_ state: TaskState) -> Int { counts.values.reduce(0) { $0 + ($1[state] ?? 0) } }
}

/// One failed task with its cause, for reports.
public struct FailedTask: Sendable, Hashable, Codable {
    public var path: String
    public var kind: Kind
    public var errorClass: ErrorClass?
    public var errorMessage: String?
    public var attempts: Int
    public var worker: String?
    public var failedAt: Double?

    /// Nil for a kind this code does not know (the schema's CHECK admits none).
    init?(row: Row) {
        guard let kind = Kind(rawValue: row["kind"]) else { return nil }
        self.kind = kind
        path = row["path"]
        errorClass = (row["errorClass"] as String?).map(ErrorClass.init(rawValue:))
        errorMessage = row["errorMessage"]
        attempts = row["attempts"]
        worker = row["worker"]
        failedAt = row["failedAt"]
    }
}

extension Catalog {
    public func status(now: Double = WallClock.now()) throws(CatalogError) -> CatalogStatus {
        try read { db in
            var status = CatalogStatus()
            status.readAt = now
            status.rates = try Self.rates(db, now: now)
            status.counts = try taskCounts(db)
            for row in try Row.fetchAll(db, sql: "SELECT mediaType, COUNT(*) AS n FROM photos GROUP BY mediaType") {
                status.photos += row["n"] as Int
                if let type = (row["mediaType"] as String?).flatMap(MediaType.init(rawValue:)) { status.mediaTypes[type] = row["n"] }
            }
            status.skippedFiles = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM skipped_files") ?? 0
            status.workers = try Row.fetchAll(db, sql: "SELECT * FROM workers ORDER BY state, id").compactMap(WorkerRow.init(row:))
            status.waiting = try waits(db)
            status.paused = try pauses(db)
            status.violations = try violationCounts(db)
            return status
        }
    }

    /// Marks every worker gone (a coordinator starting afresh knows none of them yet).
    public func forgetWorkers() throws(CatalogError) {
        try write { db in
            try db.execute(sql: "UPDATE workers SET state = 'gone', inFlight = 0 WHERE state = 'connected'")
        }
    }
}

extension Catalog {
    /// Tasks not yet finished: pending (due or backing off) or leased; pending tasks of a
    /// kind in `paused` do not count (they wait for `resume`, not for the run).
    public func unfinishedTaskCount(paused: Set<Kind> = []) throws(CatalogError) -> Int {
        try read { db in
            // From task_counts (docs/catalog.md): no scan of a million tasks.
            let waiting = paused.map { "'\($0.rawValue)'" }.sorted().joined(separator: ",")
            return try Int.fetchOne(db, sql: """
                SELECT COALESCE(SUM(n), 0) FROM task_counts
                WHERE state = 'leased' OR (state = 'pending' AND kind NOT IN (\(waiting)))
                """) ?? 0
        }
    }
}
