import Foundation
internal import GRDB
import PhotomillCore

extension Catalog {
    /// Commits leases, results and releases in one transaction. A result counts only if
    /// its task is still leased under the same token (checked in this transaction), so
    /// each is committed exactly once; anything else is reported stale.
    ///
    /// A lease whose successful result is in the same batch is never written as `leased`:
    /// the task goes from `pending` to `done` in one statement, in the same transaction,
    /// which is all a reader could ever have seen of it, provided it is still exactly as its
    /// job was paged (`updatedAt` unchanged: no re-scan, retry or reprocess since). Quick
    /// jobs so cost one write, not two.
    ///
    /// Leases, successes, their payloads and the attempts rows are written set-based, many
    /// rows a statement (`RowsStatement`): the checks stay per row, inside each statement's
    /// WHERE, and its RETURNING says which rows it changed. Failures and releases, which
    /// read before they write and are rare, go one by one.
    public func commit(_ batch: CommitBatch, now: Double, retry: RetryPolicy = RetryPolicy()) throws(CatalogError) -> CommitReport {
        try write { db in
            var state = CommitState()
            let folded = Self.foldedLeases(batch)
            try writeLeases(db, batch.leases, skipping: folded, now: now, state: &state)
            try writeExtensions(db, batch.extensions)
            for round in Self.rounds(batch.results) {
                try writeSuccesses(db, round.filter(\.isSuccess), folded: folded, now: now, state: &state)
                for reported in round where !reported.isSuccess {
                    try writeFailure(db, reported, now: now, retry: retry, state: &state)
                }
            }
            try state.dropAttemptsOfForgottenPhotos(db)
            try RowsStatement.attempts.run(db, values: state.attempts)
            for release in batch.releases {
                try applyRelease(db, release, now: now, retry: retry, report: &state.report, changes: &state.changes)
            }
            try state.changes.write(db)
            for worker in batch.workers { try worker.upsert(db) }
            try addViolations(db, batch.violations, now: now)
            return state.report
        }
    }

    /// What a commit's statements gather before its transaction ends.
    private struct CommitState {
        var report = CommitReport()
        var changes = StateChanges()
        /// The attempts rows of the batch's results, in order, written together at the end
        /// (`RowsStatement.attempts`: nine values a row).
        var attempts: [DatabaseValue] = []
        /// The photos of stale results: the only ones that may have been deleted since.
        var stalePhotos: Set<Int64> = []

        mutating func attempt(_ reported: ReportedResult, _ outcome: String, _ errorClass: ErrorClass? = nil, _ message: String? = nil) {
            let result = reported.result
            if outcome == "stale" { stalePhotos.insert(result.photoId) }
            attempts += [result.photoId.databaseValue, result.kind.rawValue.databaseValue, reported.worker.databaseValue,
                         result.leaseToken.databaseValue, reported.startedAt.databaseValue, reported.endedAt.databaseValue,
                         outcome.databaseValue, errorClass?.rawValue.databaseValue ?? .null, message?.databaseValue ?? .null]
        }

        /// A worker re-sends a result until it is ACKed, even to the next coordinator, after
        /// `forget --missing` deleted its photo: its attempts row would break the foreign
        /// key and fail the whole commit. Dropped and counted instead.
        mutating func dropAttemptsOfForgottenPhotos(_ db: Database) throws {
            guard !stalePhotos.isEmpty else { return }
            let ids = Array(stalePhotos)
            let present = Set(try Int64.fetchAll(db, sql: "SELECT id FROM photos WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
                                                 arguments: StatementArguments(ids)))
            guard present.count < ids.count else { return }
            var kept: [DatabaseValue] = []
            for row in stride(from: 0, to: attempts.count, by: 9) {
                guard let photo = Int64.fromDatabaseValue(attempts[row]), !present.contains(photo), stalePhotos.contains(photo) else {
                    kept += attempts[row..<row + 9]
                    continue
                }
                report.forgottenResults += 1
            }
            attempts = kept
        }
    }

    private struct TaskKey: Hashable {
        var photoId: Int64
        var kind: Kind
    }

    private struct FoldKey: Hashable {
        var photoId: Int64
        var kind: Kind
        var token: String
    }

    /// The batch's results in rounds, each task at most once a round, in their order: a
    /// set-based statement sees one row per task, and a task reported twice (a result that
    /// went stale, then its successor) is settled in the order it came, as one by one.
    private static func rounds(_ results: [ReportedResult]) -> [[ReportedResult]] {
        var rounds: [[ReportedResult]] = []
        var seen: [Set<TaskKey>] = []
        for reported in results {
            let key = TaskKey(photoId: reported.result.photoId, kind: reported.result.kind)
            // After the last round that holds this task.
            let index = (seen.lastIndex { $0.contains(key) } ?? -1) + 1
            if index == rounds.count {
                rounds.append([])
                seen.append([])
            }
            rounds[index].append(reported)
            seen[index].insert(key)
        }
        return rounds
    }

    /// The leases of this batch with a successful result in it, each task with its
    /// `updatedAt` as paged. A lease without them (one not from a page) is written as usual.
    private static func foldedLeases(_ batch: CommitBatch) -> [FoldKey: Double] {
        guard !batch.leases.isEmpty else { return [:] }
        var granted: [String: Lease] = [:]
        for lease in batch.leases where !lease.pagedUpdatedAt.isEmpty { granted[lease.token] = lease }
        guard !granted.isEmpty else { return [:] }
        var folded: [FoldKey: Double] = [:]
        for reported in batch.results where reported.isSuccess {
            let result = reported.result
            guard let lease = granted[result.leaseToken], let index = lease.kinds.firstIndex(of: result.kind) else { continue }
            folded[FoldKey(photoId: result.photoId, kind: result.kind, token: result.leaseToken)] = lease.pagedUpdatedAt[index]
        }
        return folded
    }

    private func writeLeases(_ db: Database, _ leases: [Lease], skipping folded: [FoldKey: Double], now: Double,
                             state: inout CommitState) throws {
        var values: [DatabaseValue] = []
        for lease in leases {
            for kind in lease.kinds where folded[FoldKey(photoId: lease.photoId, kind: kind, token: lease.token)] == nil {
                values += [lease.photoId.databaseValue, kind.rawValue.databaseValue, lease.token.databaseValue,
                           lease.worker.databaseValue, lease.leasedAt.databaseValue, lease.expiresAt.databaseValue]
            }
        }
        try RowsStatement.lease.run(db, leading: [now.databaseValue], values: values) { _, kind in
            if let kind = Kind(rawValue: kind) { state.changes.move(kind, from: .pending, to: .leased) }
        }
    }

    /// EXTENDs; of several for one token, the last, as one by one.
    private func writeExtensions(_ db: Database, _ extensions: [(token: String, expiresAt: Double)]) throws {
        var last: [String: Double] = [:]
        var order: [String] = []
        for (token, expiresAt) in extensions where last.updateValue(expiresAt, forKey: token) == nil { order.append(token) }
        try RowsStatement.extend.run(db, values: order.flatMap { [$0.databaseValue, (last[$0] ?? 0).databaseValue] })
    }

    /// Successful results, each task at most once: one statement ends the leases that still
    /// hold (written, or folded and unchanged since paged) and returns the tasks it ended;
    /// those results' payloads follow, a statement per kind; the others are stale.
    private func writeSuccesses(_ db: Database, _ successes: [ReportedResult], folded: [FoldKey: Double], now: Double,
                                state: inout CommitState) throws {
        guard !successes.isEmpty else { return }
        var values: [DatabaseValue] = []
        values.reserveCapacity(successes.count * 6)
        for reported in successes {
            let result = reported.result
            let paged = folded[FoldKey(photoId: result.photoId, kind: result.kind, token: result.leaseToken)]
            values += [result.photoId.databaseValue, result.kind.rawValue.databaseValue, result.leaseToken.databaseValue,
                       result.recipe.databaseValue, (paged == nil ? 0 : 1).databaseValue, paged?.databaseValue ?? .null]
        }
        var ended: Set<TaskKey> = []
        try RowsStatement.done.run(db, leading: [now.databaseValue], values: values) { photoId, kind in
            if let kind = Kind(rawValue: kind) { ended.insert(TaskKey(photoId: photoId, kind: kind)) }
        }
        var payloads = Payloads()
        for reported in successes {
            let result = reported.result
            guard ended.contains(TaskKey(photoId: result.photoId, kind: result.kind)) else {
                state.report.stale.insert(result.leaseToken)
                state.attempt(reported, "stale")
                continue
            }
            let paged = folded[FoldKey(photoId: result.photoId, kind: result.kind, token: result.leaseToken)]
            state.changes.move(result.kind, from: paged == nil ? .leased : .pending, to: .done)
            state.report.committed.insert(result.leaseToken)
            state.report.touchedPhotos.insert(result.photoId)
            payloads.add(result)
            state.attempt(reported, "done")
        }
        try payloads.write(db)
    }

    /// A failure: back to `pending` after its backoff, or `failed` on its last attempt; a
    /// changed file is scanned again in the same transaction.
    private func writeFailure(_ db: Database, _ reported: ReportedResult, now: Double, retry: RetryPolicy,
                              state: inout CommitState) throws {
        let result = reported.result
        guard case .failure(let errorClass, let message, let retryable) = result.outcome else { return }
        guard let held = try heldAttempts(db, result.photoId, result.kind, token: result.leaseToken) else {
            state.report.stale.insert(result.leaseToken)
            return state.attempt(reported, "stale")
        }
        state.report.committed.insert(result.leaseToken)
        state.report.touchedPhotos.insert(result.photoId)
        let again = retryable && held.attempts < held.maxAttempts
        if again { state.report.retriedTasks += 1 } else { state.report.failedTasks += 1 }
        try endLease(db, result.photoId, result.kind, token: result.leaseToken,
                     retryAt: again ? now + retry.delay(afterAttempt: held.attempts) : nil,
                     errorClass: errorClass, message: message, recipe: result.recipe, now: now, changes: &state.changes)
        state.attempt(reported, again ? "retry" : "failed", errorClass, message)
        if errorClass == .fileChanged { try rescanChanged(db, photoId: result.photoId, now: now, changes: &state.changes) }
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

extension ReportedResult {
    var isSuccess: Bool {
        if case .failure = result.outcome { return false }
        return true
    }
}

/// The payloads of committed results, by kind, written a statement per kind.
private struct Payloads {
    var hashes: [DatabaseValue] = []
    var metadata: [DatabaseValue] = []
    var thumbnails: [DatabaseValue] = []
    var ocr: [DatabaseValue] = []
    var similarity: [DatabaseValue] = []

    mutating func add(_ result: TaskResult) {
        switch result.outcome {
        case .hash(let md5, let sha256):
            hashes += [result.photoId.databaseValue, md5.databaseValue, sha256.databaseValue]
        case .metadata(let values):
            metadata += [result.photoId.databaseValue, result.recipe.databaseValue] + values.databaseValues
        case .thumbnail(let width, let height, let jpeg):
            thumbnails += [result.photoId.databaseValue, width.databaseValue, height.databaseValue, jpeg.databaseValue,
                           result.recipe.databaseValue]
        case .ocr(let text, let confidence, let language):
            ocr += [result.photoId.databaseValue, text.databaseValue, confidence.databaseValue, language.databaseValue,
                    result.recipe.databaseValue]
        case .similarity(let hash):
            similarity += [result.photoId.databaseValue, hash.bitPattern.databaseValue, result.recipe.databaseValue]
        case .failure:
            break
        }
    }

    func write(_ db: Database) throws {
        try RowsStatement.hashes.run(db, values: hashes)
        try RowsStatement.metadata.run(db, values: metadata)
        try RowsStatement.thumbnails.run(db, values: thumbnails)
        try RowsStatement.ocr.run(db, values: ocr)
        try RowsStatement.similarity.run(db, values: similarity)
    }
}
