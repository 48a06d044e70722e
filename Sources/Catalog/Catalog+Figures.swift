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

/// What `/metrics` reads on every scrape: small tables only (task_counts, pauses, workers),
/// so a scrape costs the same for 100 tasks or 10^6.
public struct CatalogFigures: Sendable {
    public var counts: [Kind: [TaskState: Int]] = [:]
    public var paused: [Kind: Pause] = [:]
    /// Connected workers.
    public var workers: [WorkerRow] = []
    /// When the figures were read (wall clock).
    public var readAt: Double = 0

    public init() {}

    public func count(_ kind: Kind, _ state: TaskState) -> Int { counts[kind]?[state] ?? 0 }
}

extension Catalog {
    public func figures(now: Double = WallClock.now()) throws(CatalogError) -> CatalogFigures {
        try read { db in
            var figures = CatalogFigures()
            figures.readAt = now
            figures.counts = try taskCounts(db)
            figures.paused = try pauses(db)
            figures.workers = try WorkerRecord.filter(WorkerRecord.Columns.state == WorkerRow.State.connected.rawValue)
                .order(WorkerRecord.Columns.id).fetchAll(db).map(\.worker)
            return figures
        }
    }

    /// Tasks per kind and state of photos not missing: task_counts (docs/catalog.md) less
    /// the tasks of the few missing photos, by their index; no pass over the tasks.
    func taskCounts(_ db: Database) throws -> [Kind: [TaskState: Int]] {
        let missing = try Self.missingTaskCounts(db)
        var counts: [Kind: [TaskState: Int]] = [:]
        for row in try TaskCountRecord.filter(TaskCountRecord.Columns.n > 0).fetchAll(db) {
            guard let kind = Kind(rawValue: row.kind), let state = TaskState(rawValue: row.state) else { continue }
            let n = row.n - (missing[kind]?[state] ?? 0)
            if n > 0 { counts[kind, default: [:]][state] = n }
        }
        return counts
    }
}
