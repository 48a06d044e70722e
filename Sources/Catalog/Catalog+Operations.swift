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

/// Which tasks an operator command acts on: every condition given must hold.
public struct TaskFilter: Sendable, Hashable, CustomStringConvertible {
    /// Empty means every kind.
    public var kinds: Set<Kind>
    public var errorClass: ErrorClass?
    /// An SQLite GLOB over the photo's absolute path (`*` also matches `/`).
    public var pathGlob: String?

    public init(kinds: Set<Kind> = [], errorClass: ErrorClass? = nil, pathGlob: String? = nil) {
        self.kinds = kinds
        self.errorClass = errorClass
        self.pathGlob = pathGlob
    }

    public var description: String {
        var parts: [String] = []
        if !kinds.isEmpty { parts.append("kind=" + kinds.sorted().map(\.rawValue).joined(separator: ",")) }
        if let errorClass { parts.append("class=" + errorClass.rawValue) }
        if let pathGlob { parts.append("path=" + pathGlob) }
        return parts.isEmpty ? "all" : parts.joined(separator: " ")
    }

    /// SQL conditions on `tasks` aliased `t`. The state is written out, not bound: only
    /// then can SQLite use the partial index of failed tasks (`tasks_failed`). Tasks of
    /// missing photos never match (`photos_missing` lists the few).
    func condition(state: TaskState) -> (sql: String, arguments: StatementArguments) {
        let kinds = (self.kinds.isEmpty ? Set(Kind.allCases) : self.kinds).sorted()
        var sql = "t.state = '\(state.rawValue)' AND t.kind IN (\(kinds.map { _ in "?" }.joined(separator: ", ")))"
        sql += " AND t.photoId NOT IN (SELECT id FROM photos WHERE missingAt IS NOT NULL)"
        var arguments = StatementArguments(kinds.map(\.rawValue))
        if let errorClass {
            sql += " AND t.errorClass = ?"
            arguments += [errorClass.rawValue]
        }
        if let pathGlob {
            sql += " AND t.photoId IN (SELECT id FROM photos WHERE path GLOB ?)"
            arguments += [pathGlob]
        }
        return (sql, arguments)
    }
}

extension FailedTask {
    /// When the task failed (its last change).
    public var failedAtDate: Date? { failedAt.map(Date.init(timeIntervalSince1970:)) }
}

extension Catalog {
    /// Failed tasks matching `filter`, by path and kind (or the latest failure first), with
    /// the worker of their last attempt.
    public func failedTasks(
        matching filter: TaskFilter = TaskFilter(),
        limit: Int? = nil,
        newestFirst: Bool = false
    ) throws(CatalogError) -> [FailedTask] {
        try read { db in
            let condition = filter.condition(state: .failed)
            // The last worker is looked up for the rows kept only, after the sort and the
            // limit: the latest 20 of 11,250 failures cost 20 lookups, not 11,250.
            let order = (newestFirst ? "failedAt DESC, " : "") + "path, kind"
            return try FailedTask.Record.fetchAll(
                db,
                sql: """
                    SELECT f.*, (SELECT a.worker FROM attempts a WHERE a.photoId = f.photoId AND a.kind = f.kind
                                 ORDER BY a.id DESC LIMIT 1) AS worker
                    FROM (SELECT t.photoId, p.path, t.kind, t.errorClass, t.errorMessage, t.attempts, t.updatedAt AS failedAt
                          FROM tasks t JOIN photos p ON p.id = t.photoId
                          WHERE \(condition.sql) ORDER BY \(order) LIMIT ?) f
                    ORDER BY \(order)
                    """,
                arguments: condition.arguments + [limit ?? -1]
            ).compactMap(FailedTask.init)
        }
    }

    /// The error classes of failed tasks, with their counts.
    public func failedClasses() throws(CatalogError) -> [ErrorClass: Int] {
        try read { db in
            let condition = TaskFilter().condition(state: .failed)
            var classes: [ErrorClass: Int] = [:]
            for group in try GroupCount<String?>.fetchAll(
                db,
                sql: """
                    SELECT t.errorClass AS key, COUNT(*) AS n FROM tasks t WHERE \(condition.sql) GROUP BY t.errorClass
                    """,
                arguments: condition.arguments
            ) {
                classes[ErrorClass(rawValue: group.key ?? "?")] = group.n
            }
            return classes
        }
    }

    /// Moves the failed tasks matching `filter` back to `pending`, due now, with a fresh
    /// attempt budget (their history stays in `attempts`). Returns how many, per kind;
    /// with `dryRun`, only counts them.
    public func retryFailed(
        matching filter: TaskFilter,
        dryRun: Bool = false,
        now: Double
    ) throws(CatalogError) -> [Kind: Int] {
        try requeue(command: "retry", filter: filter, state: .failed, extra: nil, dryRun: dryRun, now: now)
    }

    /// Puts done tasks matching `filter` (its error class is ignored) back to `pending`:
    /// all of them, or with `currentRecipes`, those whose recipe is outdated against the
    /// current one of their kind (`Recipe.isOutdated`: an older version or other
    /// parameters; a foreign worker's extra keys do not count). The old result stays until
    /// the new one replaces it.
    public func reprocess(
        matching filter: TaskFilter,
        currentRecipes: [Kind: String]?,
        dryRun: Bool = false,
        now: Double
    ) throws(CatalogError) -> [Kind: Int] {
        var filter = filter
        filter.errorClass = nil
        guard let currentRecipes else {
            return try requeue(
                command: "reprocess --all",
                filter: filter,
                state: .done,
                extra: nil,
                dryRun: dryRun,
                now: now
            )
        }
        var counts: [Kind: Int] = [:]
        let kinds = filter.kinds.isEmpty ? Set(Kind.allCases) : filter.kinds
        for kind in kinds.sorted() {
            guard let recipe = currentRecipes[kind] else { continue }
            var one = filter
            one.kinds = [kind]
            // Equal text is the common case, decided by SQLite alone; only the others are parsed.
            let found = try requeue(
                command: "reprocess --outdated",
                filter: one,
                state: .done,
                extra: (
                    "(t.recipe IS NULL OR (t.recipe != ? AND photomill_recipe_outdated(t.recipe, ?)))",
                    [recipe, recipe]
                ),
                dryRun: dryRun,
                now: now
            )
            counts.merge(found, uniquingKeysWith: +)
        }
        return counts
    }

    private func requeue(
        command: String,
        filter: TaskFilter,
        state: TaskState,
        extra: (String, StatementArguments)?,
        dryRun: Bool,
        now: Double
    ) throws(CatalogError) -> [Kind: Int] {
        try write { db in
            db.add(function: Self.recipeOutdated)
            var condition = filter.condition(state: state)
            if let (sql, arguments) = extra {
                condition.sql += " AND " + sql
                condition.arguments += arguments
            }
            let counts = try Self.kindCounts(
                db,
                sql: "SELECT t.kind AS key, COUNT(*) AS n FROM tasks t WHERE \(condition.sql) GROUP BY t.kind",
                arguments: condition.arguments
            )
            let total = counts.values.reduce(0, +)
            guard !dryRun, total > 0 else { return counts }
            try db.execute(
                sql: """
                    UPDATE tasks AS t SET state = 'pending', attempts = 0, notBefore = 0, updatedAt = ? WHERE \(condition.sql)
                    """,
                arguments: [now] + condition.arguments
            )
            var changes = StateChanges()
            for (kind, n) in counts { changes.move(kind, from: state, to: .pending, count: n) }
            try changes.write(db)
            // The new row tells a running coordinator to look again from the first photo.
            var requeue = RequeueRecord(at: now, command: command, filter: filter.description, tasks: total)
            try requeue.insert(db)
            return counts
        }
    }

    /// `Recipe.isOutdated(stored, current:)` as an SQL function of the two texts.
    private static let recipeOutdated = DatabaseFunction("photomill_recipe_outdated", argumentCount: 2, pure: true) {
        values in
        Recipe.isOutdated(String.fromDatabaseValue(values[0]), current: String.fromDatabaseValue(values[1]) ?? "")
    }
}
