import Foundation
internal import GRDB
import PhotomillCore

extension Catalog {
    /// Pending work of one tier whose backoff has passed, after `position` in the tier's
    /// order (rank, then photo): the kinds of a photo in the tier travel as one job (hash
    /// and metadata share one read of the file), thumbnails and OCR as jobs of their own
    /// (docs/catalog.md, "The order of work"). Only tasks of `kinds` (those some connected
    /// worker offers and no operator paused; the others wait).
    public func pendingJobs(tier: Int, after position: QueuePosition = .start, now: Double, limit: Int,
                            kinds: Set<Kind> = Set(Kind.allCases)) throws(CatalogError) -> [PendingJob] {
        let wanted = kinds.filter { $0.tier == tier }
        guard !wanted.isEmpty else { return [] }
        return try read { db in
            // Along tasks_queue from the position: one range of the index, whatever the
            // position (the plan is checked by SteeringCatalogTests), where a filter on the
            // position would read every task before it on each page.
            let names = wanted.map { "'\($0.rawValue)'" }.sorted().joined(separator: ",")
            let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT t.photoId, t.kind, p.path, p.size, p.mtimeNs, t.updatedAt, p.sidecarPath, p.sidecarSize,
                    p.sidecarMtimeNs, t.rank
                FROM tasks t INDEXED BY tasks_queue JOIN photos p ON p.id = t.photoId
                WHERE t.state = 'pending' AND t.tier = ? AND (t.rank, t.photoId) > (?, ?) AND t.notBefore <= ?
                    AND t.kind IN (\(names))
                ORDER BY t.rank, t.photoId
                LIMIT ?
                """), arguments: [tier, position.rank, position.photoId, now, limit * wanted.count])
            var jobs: [PendingJob] = []
            var current: PendingJob?
            // Columns by position (as selected above): a lookup by name per value cost more
            // than the rest of the row.
            while let row = try rows.next() {
                let id: Int64 = row[0], rank: Int64 = row[9]
                if current?.photoId != id || current?.rank != rank {
                    if let current, !current.kinds.isEmpty { jobs.append(current) }
                    current = nil
                    if jobs.count >= limit { return jobs }
                    let sidecar = (row[6] as String?).map { Sidecar(path: $0, size: row[7], mtimeNs: row[8]) }
                    current = PendingJob(photoId: id, path: row[2], size: row[3], mtimeNs: row[4], kinds: [], sidecar: sidecar,
                                         rank: rank)
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
            for row in try Row.fetchAll(db, sql: """
                SELECT photoId, kind, leaseToken, leasedTo, leasedAt, leaseExpires FROM tasks WHERE state = 'leased'
                """) {
                let token: String = row["leaseToken"] ?? ""
                guard let kind = Kind(rawValue: row["kind"]) else { continue }
                leases[token, default: Lease(photoId: row["photoId"], kinds: [], token: token,
                                             worker: row["leasedTo"] ?? "", leasedAt: row["leasedAt"] ?? 0,
                                             expiresAt: row["leaseExpires"] ?? 0)].kinds.append(kind)
            }
            return Array(leases.values)
        }
    }

    /// Commits leases, results and releases in one transaction. A result counts only if
    /// its task is still leased under the same token (checked in this transaction), so
    /// each is committed exactly once; anything else is reported stale.
    ///
    /// A lease whose successful result is in the same batch is never written as `leased`:
    /// the task goes from `pending` to `done` in one statement, in the same transaction,
    /// which is all a reader could ever have seen of it, provided it is still exactly as its
    /// job was paged (`updatedAt` unchanged: no re-scan, retry or reprocess since). Quick
    /// jobs so cost one write, not two.
    public func commit(_ batch: CommitBatch, now: Double, retry: RetryPolicy = RetryPolicy()) throws(CatalogError) -> CommitReport {
        try write { db in
            var report = CommitReport()
            var changes = StateChanges()
            let folded = Self.foldedLeases(batch)
            try applyLeases(db, batch.leases, skipping: folded, now: now, changes: &changes)
            for (token, expiresAt) in batch.extensions {
                try db.execute(sql: "UPDATE tasks SET leaseExpires = ? WHERE leaseToken = ? AND state = 'leased'",
                               arguments: [expiresAt, token])
            }
            for reported in batch.results {
                let key = FoldKey(photoId: reported.result.photoId, kind: reported.result.kind, token: reported.result.leaseToken)
                try applyResult(db, reported, pagedUpdatedAt: folded[key], now: now, retry: retry, report: &report, changes: &changes)
            }
            for release in batch.releases {
                try applyRelease(db, release, now: now, retry: retry, report: &report, changes: &changes)
            }
            try changes.write(db)
            for worker in batch.workers { try worker.upsert(db) }
            try addViolations(db, batch.violations, now: now)
            return report
        }
    }

    private struct FoldKey: Hashable {
        var photoId: Int64
        var kind: Kind
        var token: String
    }

    /// The leases of this batch with a successful result in it, each task with its
    /// `updatedAt` as paged. A lease without them (one not from a page) is written as usual.
    private static func foldedLeases(_ batch: CommitBatch) -> [FoldKey: Double] {
        guard !batch.leases.isEmpty else { return [:] }
        var granted: [String: Lease] = [:]
        for lease in batch.leases where !lease.pagedUpdatedAt.isEmpty { granted[lease.token] = lease }
        guard !granted.isEmpty else { return [:] }
        var folded: [FoldKey: Double] = [:]
        for reported in batch.results {
            let result = reported.result
            if case .failure = result.outcome { continue }
            guard let lease = granted[result.leaseToken], let index = lease.kinds.firstIndex(of: result.kind) else { continue }
            folded[FoldKey(photoId: result.photoId, kind: result.kind, token: result.leaseToken)] = lease.pagedUpdatedAt[index]
        }
        return folded
    }

    private func applyLeases(_ db: Database, _ leases: [Lease], skipping folded: [FoldKey: Double], now: Double,
                             changes: inout StateChanges) throws {
        let statement = try db.cachedStatement(sql: """
            UPDATE tasks SET state = 'leased', attempts = attempts + 1, leaseToken = ?, leasedTo = ?, leasedAt = ?,
                leaseExpires = ?, updatedAt = ?
            WHERE photoId = ? AND kind = ? AND state = 'pending'
            """)
        for lease in leases {
            for kind in lease.kinds where folded[FoldKey(photoId: lease.photoId, kind: kind, token: lease.token)] == nil {
                try statement.execute(arguments: [lease.token, lease.worker, lease.leasedAt, lease.expiresAt, now,
                                                  lease.photoId, kind.rawValue])
                if db.changesCount == 1 { changes.move(kind, from: .pending, to: .leased) }
            }
        }
    }

    /// `pagedUpdatedAt`: set when the result's lease is in the same batch and was not written.
    private func applyResult(_ db: Database, _ reported: ReportedResult, pagedUpdatedAt: Double?, now: Double, retry: RetryPolicy,
                             report: inout CommitReport, changes: inout StateChanges) throws {
        let result = reported.result
        func recordAttempt(_ outcome: String, _ errorClass: ErrorClass? = nil, _ message: String? = nil) throws {
            try db.cachedStatement(sql: """
                INSERT INTO attempts (photoId, kind, worker, leaseToken, startedAt, endedAt, outcome, errorClass, errorMessage)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [result.photoId, result.kind.rawValue, reported.worker, result.leaseToken,
                                         reported.startedAt, reported.endedAt, outcome, errorClass?.rawValue, message])
        }

        if case .failure(let errorClass, let message, let retryable) = result.outcome {
            guard let held = try heldAttempts(db, result.photoId, result.kind, token: result.leaseToken) else {
                report.stale.insert(result.leaseToken)
                return try recordAttempt("stale")
            }
            report.committed.insert(result.leaseToken)
            report.touchedPhotos.insert(result.photoId)
            let again = retryable && held.attempts < held.maxAttempts
            if again { report.retriedTasks += 1 } else { report.failedTasks += 1 }
            try endLease(db, result.photoId, result.kind, token: result.leaseToken,
                         retryAt: again ? now + retry.delay(afterAttempt: held.attempts) : nil,
                         errorClass: errorClass, message: message, recipe: result.recipe, now: now, changes: &changes)
            try recordAttempt(again ? "retry" : "failed", errorClass, message)
            if errorClass == .fileChanged { try rescanChanged(db, photoId: result.photoId, now: now, changes: &changes) }
            return

        }

        // The lease check and the state change are one statement: a success costs no read.
        if let pagedUpdatedAt {
            // Its lease was never written: the task must still be as its job was paged (a
            // re-scan of a changed file, a retry or a reprocess since then wrote another
            // updatedAt). Equal, not earlier-than: a step of the wall clock orders nothing.
            try db.cachedStatement(sql: """
                UPDATE tasks SET state = 'done', attempts = attempts + 1, recipe = ?, errorClass = NULL,
                    errorMessage = NULL, updatedAt = ?
                WHERE photoId = ? AND kind = ? AND state = 'pending' AND updatedAt = ?
                """).execute(arguments: [result.recipe, now, result.photoId, result.kind.rawValue, pagedUpdatedAt])
        } else {
            try db.cachedStatement(sql: """
                UPDATE tasks SET state = 'done', recipe = ?, leaseToken = NULL, leasedTo = NULL, leasedAt = NULL,
                    leaseExpires = NULL, errorClass = NULL, errorMessage = NULL, updatedAt = ?
                WHERE photoId = ? AND kind = ? AND leaseToken = ? AND state = 'leased'
                """).execute(arguments: [result.recipe, now, result.photoId, result.kind.rawValue, result.leaseToken])
        }
        guard db.changesCount == 1 else {
            report.stale.insert(result.leaseToken)
            return try recordAttempt("stale")
        }
        changes.move(result.kind, from: pagedUpdatedAt == nil ? .leased : .pending, to: .done)
        report.committed.insert(result.leaseToken)
        report.touchedPhotos.insert(result.photoId)
        switch result.outcome {
        case .hash(let md5, let sha256):
            try db.cachedStatement(sql: "UPDATE photos SET md5 = ?, sha256 = ? WHERE id = ?")
                .execute(arguments: [md5, sha256, result.photoId])
        case .metadata(let values):
            let columns = PhotoMetadata.columns
            try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO metadata (photoId, recipe, \(columns.joined(separator: ", ")))
                VALUES (?, ?\(String(repeating: ", ?", count: columns.count)))
                """).execute(arguments: [result.photoId, result.recipe] + values.databaseArguments)
        case .thumbnail(let width, let height, let jpeg):
            try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO thumbnails (photoId, width, height, jpeg, recipe) VALUES (?, ?, ?, ?, ?)
                """).execute(arguments: [result.photoId, width, height, jpeg, result.recipe])
        case .ocr(let text, let confidence, let language):
            // An upsert, not INSERT OR REPLACE: REPLACE's implicit delete fires no trigger,
            // and the FTS index would keep the old text's words.
            try db.cachedStatement(sql: """
                INSERT INTO ocr (photoId, text, confidence, language, recipe) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(photoId) DO UPDATE SET text = excluded.text, confidence = excluded.confidence,
                    language = excluded.language, recipe = excluded.recipe
                """).execute(arguments: [result.photoId, text, confidence, language, result.recipe])
        case .failure:
            break
        }
        try recordAttempt("done")
    }

    /// Attempts used and allowed, if the task is still leased under `token`.
    private func heldAttempts(_ db: Database, _ photoId: Int64, _ kind: Kind,
                              token: String) throws -> (attempts: Int, maxAttempts: Int)? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT attempts, maxAttempts FROM tasks WHERE photoId = ? AND kind = ? AND leaseToken = ? AND state = 'leased'
            """), arguments: [photoId, kind.rawValue, token]) else { return nil }
        return (row["attempts"], row["maxAttempts"])
    }

    /// Ends a lease without a result: back to `pending` at `retryAt`, or `failed` when nil.
    private func endLease(_ db: Database, _ photoId: Int64, _ kind: Kind, token: String, retryAt: Double?,
                          attempts: Int? = nil, errorClass: ErrorClass, message: String, recipe: String? = nil,
                          now: Double, changes: inout StateChanges) throws {
        let key: StatementArguments = [photoId, kind.rawValue, token]
        if let retryAt {
            try db.cachedStatement(sql: """
                UPDATE tasks SET state = 'pending', attempts = COALESCE(?, attempts), notBefore = ?, leaseToken = NULL,
                    leasedTo = NULL, leasedAt = NULL, leaseExpires = NULL, errorClass = ?, errorMessage = ?, updatedAt = ?
                WHERE photoId = ? AND kind = ? AND leaseToken = ? AND state = 'leased'
                """).execute(arguments: [attempts, retryAt, errorClass.rawValue, message, now] + key)
        } else {
            try db.cachedStatement(sql: """
                UPDATE tasks SET state = 'failed', recipe = COALESCE(?, recipe), leaseToken = NULL, leasedTo = NULL,
                    leasedAt = NULL, leaseExpires = NULL, errorClass = ?, errorMessage = ?, updatedAt = ?
                WHERE photoId = ? AND kind = ? AND leaseToken = ? AND state = 'leased'
                """).execute(arguments: [recipe, errorClass.rawValue, message, now] + key)
        }
        if db.changesCount == 1 { changes.move(kind, from: .leased, to: retryAt == nil ? .failed : .pending) }
    }

    private func applyRelease(_ db: Database, _ release: Release, now: Double, retry: RetryPolicy,
                              report: inout CommitReport, changes: inout StateChanges) throws {
        let lease = release.lease
        // One backoff for every kind of the lease, so that they travel together again.
        var delay: Double?
        for kind in lease.kinds {
            guard let held = try heldAttempts(db, lease.photoId, kind, token: lease.token) else { continue }
            // A coordinator's own shutdown hands the attempt back.
            let attempts = release.reason == .shutdown ? held.attempts - 1 : held.attempts
            let final = attempts >= held.maxAttempts
            if final { report.failedTasks += 1 } else { report.retriedTasks += 1 }
            let wait = delay ?? (release.reason == .shutdown ? 0 : retry.delay(afterAttempt: attempts))
            delay = wait
            try endLease(db, lease.photoId, kind, token: lease.token, retryAt: final ? nil : now + wait,
                         attempts: attempts, errorClass: release.reason.finalErrorClass, message: release.message, now: now,
                         changes: &changes)
            if release.reason != .shutdown {
                try db.execute(sql: """
                    INSERT INTO attempts (photoId, kind, worker, leaseToken, startedAt, endedAt, outcome, errorClass, errorMessage)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [lease.photoId, kind.rawValue, lease.worker, lease.token, lease.leasedAt, now,
                                     release.reason.rawValue, release.reason.finalErrorClass.rawValue, release.message])
            }
        }
    }
}
