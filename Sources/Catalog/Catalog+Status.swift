import GRDB

/// Counts per kind and state, and the workers, as `photomill status` shows them.
public struct CatalogStatus: Sendable {
    public var counts: [TaskKind: [TaskState: Int]] = [:]
    public var photos = 0
    public var workers: [WorkerRow] = []
    /// Kind → why its pending tasks wait (no connected worker offers it), as the coordinator last saw.
    public var waiting: [TaskKind: String] = [:]
    /// Messages the coordinator dropped (malformed, unexpected, from strangers), by reason.
    public var violations: [String: Int] = [:]

    public func count(_ kind: TaskKind, _ state: TaskState) -> Int { counts[kind]?[state] ?? 0 }
    public func total(_ state: TaskState) -> Int { counts.values.reduce(0) { $0 + ($1[state] ?? 0) } }
}

/// One failed task with its cause, for reports.
public struct FailedTask: Sendable, Hashable, Codable, FetchableRecord {
    public var path: String
    public var kind: String
    public var errorClass: String?
    public var errorMessage: String?
    public var attempts: Int
    public var worker: String?
}

extension Catalog {
    public func status() throws(CatalogError) -> CatalogStatus {
        try read { db in
            var status = CatalogStatus()
            for row in try Row.fetchAll(db, sql: "SELECT kind, state, COUNT(*) AS n FROM tasks GROUP BY kind, state") {
                guard let kind = TaskKind(rawValue: row["kind"]), let state = TaskState(rawValue: row["state"]) else { continue }
                status.counts[kind, default: [:]][state] = row["n"]
            }
            status.photos = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photos") ?? 0
            status.workers = try WorkerRow.fetchAll(db, sql: "SELECT * FROM workers ORDER BY state, id")
            status.waiting = try waits(db)
            status.violations = try violationCounts(db)
            return status
        }
    }

    /// Failed tasks with the worker of their last attempt.
    public func failedTasks(limit: Int = 1000) throws(CatalogError) -> [FailedTask] {
        try read { db in
            try FailedTask.fetchAll(db, sql: """
                SELECT p.path, t.kind, t.errorClass, t.errorMessage, t.attempts,
                    (SELECT a.worker FROM attempts a WHERE a.photoId = t.photoId AND a.kind = t.kind
                     ORDER BY a.id DESC LIMIT 1) AS worker
                FROM tasks t JOIN photos p ON p.id = t.photoId
                WHERE t.state = 'failed' ORDER BY p.path, t.kind LIMIT ?
                """, arguments: [limit])
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
    /// Tasks not yet finished: pending (due or backing off) or leased.
    public func unfinishedTaskCount() throws(CatalogError) -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tasks WHERE state IN ('pending', 'leased')") ?? 0
        }
    }
}
