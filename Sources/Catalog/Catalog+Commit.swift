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
    /// Commits leases, results and releases in one transaction. A result counts only if
    /// its task is still leased under the same token (checked in this transaction), so
    /// each is committed exactly once; anything else is reported stale.
    ///
    /// A result whose lease was never written (folded by the scheduler's `LeaseTable`:
    /// `ReportedResult.pagedUpdatedAt`) takes its task from `pending` to `done` in one
    /// statement, which is all a reader could ever have seen of it, provided it is still
    /// exactly as its job was paged (`updatedAt` unchanged: no re-scan, retry or reprocess
    /// since). Quick jobs so cost one write, not two.
    ///
    /// Leases, successes, their payloads and the attempts rows are written set-based, many
    /// rows a statement (`CommitStatements`, each column named with its value): the checks
    /// stay per row, inside each statement's WHERE, and its RETURNING says which rows it
    /// changed. Failures and releases, which
    /// read before they write and are rare, go one by one.
    public func commit(
        _ batch: CommitBatch,
        now: Double,
        retry: RetryPolicy = RetryPolicy()
    ) throws(CatalogError) -> CommitReport {
        try write { db in
            var state = CommitState()
            try writeLeases(db, batch.leases, now: now, state: &state)
            try writeExtensions(db, batch.extensions)
            for round in Self.rounds(batch.results) {
                try writeSuccesses(db, round.filter(\.isSuccess), now: now, state: &state)
                for reported in round where !reported.isSuccess {
                    try writeFailure(db, reported, now: now, retry: retry, state: &state)
                }
            }
            try state.dropAttemptsOfForgottenPhotos(db)
            try CommitStatements.attempts.run(db, state.attempts)
            for release in batch.releases {
                try applyRelease(db, release, now: now, retry: retry, report: &state.report, changes: &state.changes)
            }
            try state.changes.write(db)
            for worker in batch.workers { try worker.upsert(db) }
            try addViolations(db, batch.violations, now: now)
            if let waits = batch.waits { try Self.replaceWaits(db, waits) }
            return state.report
        }
    }

    /// What a commit's statements gather before its transaction ends.
    private struct CommitState {
        var report = CommitReport()
        var changes = StateChanges()
        /// The attempts rows of the batch's results, in order, written together at the end.
        var attempts: [AttemptRow] = []
        /// The photos of stale results: the only ones that may have been deleted since.
        var stalePhotos: Set<Int64> = []

        mutating func attempt(
            _ reported: ReportedResult,
            _ outcome: AttemptOutcome,
            _ errorClass: ErrorClass? = nil,
            _ message: String? = nil
        ) {
            let result = reported.result
            if outcome == .stale { stalePhotos.insert(result.photoId) }
            attempts.append(
                AttemptRow(
                    photoId: result.photoId,
                    kind: result.kind,
                    worker: reported.worker,
                    leaseToken: result.leaseToken,
                    startedAt: reported.startedAt,
                    endedAt: reported.endedAt,
                    outcome: outcome,
                    errorClass: errorClass,
                    errorMessage: message
                )
            )
        }

        /// A worker re-sends a result until it is ACKed, even to the next coordinator, after
        /// `forget --missing` deleted its photo: its attempts row would break the foreign
        /// key and fail the whole commit. Dropped and counted instead.
        mutating func dropAttemptsOfForgottenPhotos(_ db: Database) throws {
            guard !stalePhotos.isEmpty else { return }
            let ids = Array(stalePhotos)
            let present = Set(
                try Int64.fetchAll(
                    db,
                    sql: "SELECT id FROM photos WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
                    arguments: StatementArguments(ids)
                )
            )
            guard present.count < ids.count else { return }
            let before = attempts.count
            attempts.removeAll { !present.contains($0.photoId) && stalePhotos.contains($0.photoId) }
            report.forgottenResults += before - attempts.count
        }
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

    private func writeLeases(_ db: Database, _ leases: [Lease], now: Double, state: inout CommitState) throws {
        let rows = leases.flatMap { lease in lease.kinds.map { LeaseRow(lease: lease, kind: $0) } }
        try CommitStatements.lease.run(db, rows, after: [now.databaseValue]) { _, kind in
            if let kind = Kind(rawValue: kind) { state.changes.move(kind, from: .pending, to: .leased) }
        }
    }

    /// EXTENDs; of several for one token, the last, as one by one.
    private func writeExtensions(_ db: Database, _ extensions: [(token: String, expiresAt: Double)]) throws {
        var last: [String: Double] = [:]
        var order: [String] = []
        for (token, expiresAt) in extensions where last.updateValue(expiresAt, forKey: token) == nil {
            order.append(token)
        }
        try CommitStatements.extend.run(db, order.map { ($0, last[$0] ?? 0) })
    }

    /// Successful results, each task at most once: one statement ends the leases that still
    /// hold (written, or folded and unchanged since paged) and returns the tasks it ended;
    /// those results' payloads follow, a statement per kind; the others are stale.
    private func writeSuccesses(
        _ db: Database,
        _ successes: [ReportedResult],
        now: Double,
        state: inout CommitState
    ) throws {
        guard !successes.isEmpty else { return }
        var ended: Set<TaskKey> = []
        try CommitStatements.done.run(db, successes, after: [now.databaseValue]) { photoId, kind in
            if let kind = Kind(rawValue: kind) { ended.insert(TaskKey(photoId: photoId, kind: kind)) }
        }
        var payloads = Payloads()
        for reported in successes {
            let result = reported.result
            guard ended.contains(TaskKey(photoId: result.photoId, kind: result.kind)) else {
                state.report.stale.insert(result.leaseToken)
                state.attempt(reported, .stale)
                continue
            }
            state.changes.move(result.kind, from: reported.pagedUpdatedAt == nil ? .leased : .pending, to: .done)
            state.report.committed.insert(result.leaseToken)
            state.report.touchedPhotos.insert(result.photoId)
            payloads.add(result)
            state.attempt(reported, .done)
        }
        try payloads.write(db)
    }

    /// A failure: back to `pending` after its backoff, or `failed` on its last attempt; a
    /// changed file is scanned again in the same transaction.
    private func writeFailure(
        _ db: Database,
        _ reported: ReportedResult,
        now: Double,
        retry: RetryPolicy,
        state: inout CommitState
    ) throws {
        let result = reported.result
        guard case .failure(let errorClass, let message, let retryable) = result.outcome else { return }
        guard let held = try heldAttempts(db, result.photoId, result.kind, token: result.leaseToken) else {
            state.report.stale.insert(result.leaseToken)
            return state.attempt(reported, .stale)
        }
        state.report.committed.insert(result.leaseToken)
        state.report.touchedPhotos.insert(result.photoId)
        let again = retryable && held.attempts < held.maxAttempts
        if again { state.report.retriedTasks += 1 } else { state.report.failedTasks += 1 }
        try endLease(
            db,
            result.photoId,
            result.kind,
            token: result.leaseToken,
            retryAt: again ? now + retry.delay(afterAttempt: held.attempts) : nil,
            errorClass: errorClass,
            message: message,
            recipe: result.recipe,
            now: now,
            changes: &state.changes
        )
        state.attempt(reported, again ? .retry : .failed, errorClass, message)
        if errorClass == .fileChanged {
            try rescanChanged(db, photoId: result.photoId, now: now, changes: &state.changes)
        }
    }

    /// Attempts used and allowed, if the task is still leased under `token`.
    private func heldAttempts(
        _ db: Database,
        _ photoId: Int64,
        _ kind: Kind,
        token: String
    ) throws -> (attempts: Int, maxAttempts: Int)? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT attempts, maxAttempts FROM tasks WHERE photoId = ? AND kind = ? AND leaseToken = ? AND state = 'leased'
                        """
                ),
                arguments: [photoId, kind.rawValue, token]
            )
        else { return nil }
        return (row["attempts"], row["maxAttempts"])
    }

    /// Ends a lease without a result: back to `pending` at `retryAt`, or `failed` when nil.
    private func endLease(
        _ db: Database,
        _ photoId: Int64,
        _ kind: Kind,
        token: String,
        retryAt: Double?,
        attempts: Int? = nil,
        errorClass: ErrorClass,
        message: String,
        recipe: String? = nil,
        now: Double,
        changes: inout StateChanges
    ) throws {
        let key: StatementArguments = [photoId, kind.rawValue, token]
        if let retryAt {
            try db.cachedStatement(
                sql: """
                    UPDATE tasks SET state = 'pending', attempts = COALESCE(?, attempts), notBefore = ?, leaseToken = NULL,
                        leasedTo = NULL, leasedAt = NULL, leaseExpires = NULL, errorClass = ?, errorMessage = ?, updatedAt = ?
                    WHERE photoId = ? AND kind = ? AND leaseToken = ? AND state = 'leased'
                    """
            ).execute(arguments: [attempts, retryAt, errorClass.rawValue, message, now] + key)
        } else {
            try db.cachedStatement(
                sql: """
                    UPDATE tasks SET state = 'failed', recipe = COALESCE(?, recipe), leaseToken = NULL, leasedTo = NULL,
                        leasedAt = NULL, leaseExpires = NULL, errorClass = ?, errorMessage = ?, updatedAt = ?
                    WHERE photoId = ? AND kind = ? AND leaseToken = ? AND state = 'leased'
                    """
            ).execute(arguments: [recipe, errorClass.rawValue, message, now] + key)
        }
        if db.changesCount == 1 { changes.move(kind, from: .leased, to: retryAt == nil ? .failed : .pending) }
    }

    private func applyRelease(
        _ db: Database,
        _ release: Release,
        now: Double,
        retry: RetryPolicy,
        report: inout CommitReport,
        changes: inout StateChanges
    ) throws {
        let lease = release.lease
        // One backoff for every kind of the lease, so that they travel together again.
        var delay: Double?
        for kind in lease.kinds {
            guard let held = try heldAttempts(db, lease.photoId, kind, token: lease.token) else { continue }
            // A coordinator's own shutdown, or a JOB never sent, hands the attempt back.
            let attempts = release.reason.usesAttempt ? held.attempts : held.attempts - 1
            let final = attempts >= held.maxAttempts
            if final { report.failedTasks += 1 } else { report.retriedTasks += 1 }
            let wait = delay ?? (release.reason.usesAttempt ? retry.delay(afterAttempt: attempts) : 0)
            delay = wait
            try endLease(
                db,
                lease.photoId,
                kind,
                token: lease.token,
                retryAt: final ? nil : now + wait,
                attempts: attempts,
                errorClass: release.reason.finalErrorClass,
                message: release.message,
                now: now,
                changes: &changes
            )
            if let outcome = release.reason.attemptOutcome {
                try db.execute(
                    sql: """
                        INSERT INTO attempts (photoId, kind, worker, leaseToken, startedAt, endedAt, outcome, errorClass, errorMessage)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        lease.photoId, kind.rawValue, lease.worker, lease.token, lease.leasedAt, now,
                        outcome.rawValue, release.reason.finalErrorClass.rawValue, release.message,
                    ]
                )
            }
        }
    }
}
