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

/// Counts per kind and state, and the workers, as `photomill status` shows them.
public struct CatalogStatus: Sendable {
    public var counts: [Kind: [TaskState: Int]] = [:]
    public var photos = 0
    /// Photos by what they are; a photo of an older catalog not yet rescanned has no type.
    public var mediaTypes: [MediaType: Int] = [:]
    /// Files the scans found that are not media (docs/operations.md).
    public var skippedFiles = 0
    /// Photos the last scan of their folder no longer found; left out of every count above.
    public var missingPhotos = 0
    /// Folders the scans could not list (failures, like failed tasks).
    public var unreadableFolders = 0
    public var workers: [WorkerRow] = []
    /// Kind → why its pending tasks wait (no connected worker offers it), as the coordinator last saw.
    public var waiting: [Kind: WaitReason] = [:]
    /// Pending tasks a connected worker could take that wait all the same (`add`).
    public var heldBack = HeldBackTasks()
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

    /// A failed task's row, decoded by name; its kind as text, so that a kind this code
    /// does not know is left out rather than an error.
    struct Record: FetchableRecord, Decodable {
        var path: String
        var kind: String
        var errorClass: String?
        var errorMessage: String?
        var attempts: Int
        var worker: String?
        var failedAt: Double?
    }

    /// Nil for a kind this code does not know.
    init?(_ record: Record) {
        guard let kind = Kind(rawValue: record.kind) else { return nil }
        self.kind = kind
        path = record.path
        errorClass = record.errorClass.map(ErrorClass.init(rawValue:))
        errorMessage = record.errorMessage
        attempts = record.attempts
        worker = record.worker
        failedAt = record.failedAt
    }
}

extension Catalog {
    public func status(now: Double = WallClock.now()) throws(CatalogError) -> CatalogStatus {
        try read { db in
            var status = CatalogStatus()
            status.readAt = now
            status.rates = try Self.rates(db, now: now)
            status.counts = try taskCounts(db)
            status.unreadableFolders = try Table("unreadable_folders").fetchCount(db)
            // All by the mediaType index, less the few missing by theirs: no pass over the table.
            for (sign, sql) in [
                (1, "SELECT mediaType AS key, COUNT(*) AS n FROM photos GROUP BY mediaType"),
                (
                    -1,
                    "SELECT mediaType AS key, COUNT(*) AS n FROM photos INDEXED BY photos_missing WHERE missingAt IS NOT NULL GROUP BY mediaType"
                ),
            ] {
                for group in try GroupCount<MediaType?>.fetchAll(db, sql: sql) {
                    let n = sign * group.n
                    status.photos += n
                    if sign < 0 { status.missingPhotos -= n }
                    if let type = group.key { status.mediaTypes[type, default: 0] += n }
                }
            }
            status.mediaTypes = status.mediaTypes.filter { $0.value > 0 }
            status.skippedFiles = try Table("skipped_files").fetchCount(db)
            status.workers = try WorkerRecord.order(WorkerRecord.Columns.state, WorkerRecord.Columns.id).fetchAll(db)
                .map(\.worker)
            // A coordinator killed (kill -9, a crash) left its workers `connected`; its
            // workers died with it (`worker --die-with-parent`) or lost it: none is.
            if CatalogLock.deadHolder(catalog: path) != nil {
                status.workers = status.workers.map { worker in
                    var worker = worker
                    if worker.state == .connected { (worker.state, worker.inFlight) = (.gone, 0) }
                    return worker
                }
            }
            status.waiting = try waits(db)
            status.paused = try pauses(db)
            status.violations = try violationCounts(db)
            return status
        }
    }

    /// Marks every worker gone (a coordinator starting afresh knows none of them yet).
    public func forgetWorkers() throws(CatalogError) {
        try write { db in
            try WorkerRecord.filter(WorkerRecord.Columns.state == WorkerRow.State.connected.rawValue)
                .updateAll(
                    db,
                    WorkerRecord.Columns.state.set(to: WorkerRow.State.gone.rawValue),
                    WorkerRecord.Columns.inFlight.set(to: 0)
                )
        }
    }
}

extension Catalog {
    /// Tasks that ended (done or failed) since `time`, by state: what a run did, whatever
    /// was queued before it began. One pass over the tasks, at the end of a run.
    public func tasksFinished(since time: Double) throws(CatalogError) -> [TaskState: Int] {
        try read { db in
            var finished: [TaskState: Int] = [:]
            for group in try GroupCount<TaskState>.fetchAll(
                db,
                sql: """
                    SELECT state AS key, COUNT(*) AS n FROM tasks WHERE updatedAt >= ? AND (state = 'done' OR state = 'failed') GROUP BY state
                    """,
                arguments: [time]
            ) {
                finished[group.key] = group.n
            }
            return finished
        }
    }

    /// Tasks not yet finished, of photos not missing: pending (due or backing off) or
    /// leased; of `kinds` only (`run --kinds` ends when those are done, though a changed
    /// file queued its other kinds again); pending tasks of a kind in `paused` do not count
    /// (they wait for `resume`, not for the run).
    public func unfinishedTaskCount(
        kinds: Set<Kind> = Set(Kind.allCases),
        paused: Set<Kind> = []
    ) throws(CatalogError) -> Int {
        try read { db in
            // From task_counts (docs/catalog.md): no scan of a million tasks.
            try taskCounts(db).filter { kinds.contains($0.key) }.reduce(0) { sum, entry in
                sum + (entry.value[.leased] ?? 0) + (paused.contains(entry.key) ? 0 : entry.value[.pending] ?? 0)
            }
        }
    }
}
