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

/// A photo whose content a new file may have: one of that size, hashed, and missing (or
/// gone from its path since the scan began).
public struct MoveCandidate: Sendable, Hashable {
    public var id: Int64
    public var path: String
    public var md5: String
    public var missing: Bool
}

/// A folder the scan could not list: a failure `photomill failed` shows and `run` counts.
public struct UnreadableFolder: Sendable, Hashable {
    public var path: String
    public var message: String
    public var at: Double
}

extension Catalog {
    /// Hashed photos of these sizes, by size (`photos_size`): where the scan looks for the
    /// photo a new file may be, moved or renamed. The missing first, and 256 at most a size
    /// (the scan checks the others on disk, one lstat(2) each): among more copies of one
    /// file a move may go unseen, and the file is then processed as a new one.
    public func moveCandidates(sizes: Set<Int64>) throws(CatalogError) -> [Int64: [MoveCandidate]] {
        guard !sizes.isEmpty else { return [:] }
        return try read { db in
            var found: [Int64: [MoveCandidate]] = [:]
            let statement = try db.cachedStatement(
                sql: """
                    SELECT id, path, md5, missingAt IS NOT NULL AS missing FROM photos WHERE size = ? AND md5 IS NOT NULL
                    ORDER BY missingAt IS NULL, id LIMIT 256
                    """
            )
            for size in sizes {
                let rows = try Row.fetchAll(statement, arguments: [size])
                if !rows.isEmpty {
                    found[size] = rows.map {
                        MoveCandidate(id: $0["id"], path: $0["path"], md5: $0["md5"], missing: $0["missing"])
                    }
                }
            }
            return found
        }
    }

    /// The highest photo id so far: photos a scan adds get higher ones.
    public func lastPhotoId() throws(CatalogError) -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM photos") ?? 0 }
    }

    /// After a complete walk of `root`: marks missing the photos under it (up to
    /// `lastId`, those that existed when the walk began) that the walk did not find, except
    /// those under a folder it could not list. Their tasks, results and history stay;
    /// `status`, `search`, `duplicates`, the exports and `run`'s exit status leave them
    /// out. Returns how many were marked.
    public func markMissing(
        under root: String,
        lastId: Int64,
        found: (Int64) -> Bool,
        unlisted: [String],
        now: Double
    ) throws(CatalogError) -> Int {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        // Read first, write the few after: a million paths are not read inside the writer's lock.
        let gone: [Int64] = try read { db in
            var gone: [Int64] = []
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, path FROM photos WHERE path >= ? AND path < ? AND id <= ? AND missingAt IS NULL
                    """,
                arguments: [prefix, Self.upperBound(prefix), lastId]
            )
            while let row = try rows.next() {
                let id: Int64 = row[0]
                guard !found(id) else { continue }
                let path: String = row[1]
                if unlisted.contains(where: path.isPath(under:)) { continue }
                gone.append(id)
            }
            return gone
        }
        return try markMissing(gone, now: now)
    }

    /// Marks missing the photos `ids` not marked yet (a walk in path order passed where
    /// they were without finding them: `Scanner.CatalogOrder`). Returns how many were marked.
    public func markMissing(_ gone: [Int64], now: Double) throws(CatalogError) -> Int {
        guard !gone.isEmpty else { return 0 }
        return try write { db in
            var marked = 0
            let statement = try db.cachedStatement(
                sql: "UPDATE photos SET missingAt = ? WHERE id = ? AND missingAt IS NULL"
            )
            for id in gone {
                try statement.execute(arguments: [now, id])
                marked += db.changesCount
            }
            return marked
        }
    }

    /// Paths the scan found gone (deleted, or moved out of the scanned folders): the
    /// photos at each path or under it are marked missing; what was listed as skipped or
    /// unreadable there is forgotten. Returns the photos marked.
    public func markGone(_ paths: [String], now: Double) throws(CatalogError) -> Int {
        guard !paths.isEmpty else { return 0 }
        return try write { db in
            var marked = 0
            for path in paths {
                let prefix = path.hasSuffix("/") ? path : path + "/"
                let under = "(path = ? OR (path >= ? AND path < ?))"
                let arguments: StatementArguments = [path, prefix, Self.upperBound(prefix)]
                try db.execute(
                    sql: "UPDATE photos SET missingAt = ? WHERE \(under) AND missingAt IS NULL",
                    arguments: [now] + arguments
                )
                marked += db.changesCount
                try db.execute(sql: "DELETE FROM skipped_files WHERE \(under)", arguments: arguments)
                try db.execute(sql: "DELETE FROM unreadable_folders WHERE \(under)", arguments: arguments)
            }
            return marked
        }
    }

    /// `path` (a file, or a folder and everything under it) is excluded by `rule`: its
    /// photos are missing (kept with their results, left out of every count, export and
    /// the queue, as photos gone are) with the rule that excluded them, and the path is
    /// listed as skipped. Returns the photos newly marked.
    public func markExcluded(_ path: String, rule: String, isFolder: Bool, now: Double) throws(CatalogError) -> Int {
        try write { db in
            let prefix = path.hasSuffix("/") ? path : path + "/"
            let under = "(path = ? OR (path >= ? AND path < ?))"
            let arguments: StatementArguments = [path, prefix, Self.upperBound(prefix)]
            try db.execute(
                sql: "UPDATE photos SET missingAt = ?, excludedBy = ? WHERE \(under) AND missingAt IS NULL",
                arguments: [now, rule] + arguments
            )
            let marked = db.changesCount
            try db.execute(
                sql: "UPDATE photos SET excludedBy = ? WHERE \(under) AND missingAt IS NOT NULL",
                arguments: [rule] + arguments
            )
            // What was listed under it is covered by the one entry.
            try db.execute(sql: "DELETE FROM skipped_files WHERE \(under)", arguments: arguments)
            try db.execute(
                sql: """
                    INSERT INTO skipped_files (path, size, mtimeNs, scannedAt, reason, detail) VALUES (?, 0, 0, ?, ?, ?)
                    """,
                arguments: [path, now, SkipReason.excluded.rawValue, rule]
            )
            return marked
        }
    }

    /// A folder renamed or moved within the scanned folders (the watcher saw both ends):
    /// every photo under `from` takes its path under `to` in one transaction, keeping its
    /// id, results and history; no task is queued. A missing photo's row whose path one of
    /// them now takes goes (the file at that path is the moved one). Returns the ids of the
    /// photos moved.
    public func moveFolder(from: String, to: String, now: Double) throws(CatalogError) -> [Int64] {
        try write { db in
            let fromPrefix = from + "/"
            let toPrefix = to + "/"
            let moving = "path >= ? AND path < ?"
            let range: StatementArguments = [fromPrefix, Self.upperBound(fromPrefix)]
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM photos WHERE \(moving)", arguments: range)
            guard !ids.isEmpty else { return [] }
            // `substr` counts characters: the prefix's length in characters, not bytes.
            let tail = "substr(path, length(?) + 1)"
            try db.execute(
                sql: """
                    DELETE FROM photos WHERE path >= ? AND path < ? AND path IN (SELECT ? || \(tail) FROM photos WHERE \(moving))
                    """,
                arguments: [toPrefix, Self.upperBound(toPrefix), toPrefix, fromPrefix] + range
            )
            try db.execute(
                sql: """
                    UPDATE photos SET path = ? || \(tail), stem = CASE WHEN stem IS NULL THEN NULL ELSE ? || substr(stem, length(?) + 1) END,
                        sidecarPath = CASE WHEN sidecarPath >= ? AND sidecarPath < ? THEN ? || substr(sidecarPath, length(?) + 1)
                                           ELSE sidecarPath END,
                        scannedAt = ?
                    WHERE \(moving)
                    """,
                arguments: [
                    toPrefix, fromPrefix, toPrefix, fromPrefix, fromPrefix, Self.upperBound(fromPrefix), toPrefix,
                    fromPrefix,
                    now,
                ] + range
            )
            for table in ["skipped_files", "unreadable_folders"] {
                try db.execute(
                    sql: "DELETE FROM \(table) WHERE path = ? OR (path >= ? AND path < ?)",
                    arguments: [to, toPrefix, Self.upperBound(toPrefix)]
                )
                try db.execute(
                    sql: "UPDATE \(table) SET path = ? || \(tail) WHERE \(moving)",
                    arguments: [toPrefix, fromPrefix] + range
                )
                try db.execute(sql: "UPDATE \(table) SET path = ? WHERE path = ?", arguments: [to, from])
            }
            return ids
        }
    }

    /// After a complete walk of `root`: forgets the skipped files under it that the walk
    /// did not find again (`found`).
    public func forgetSkipped(under root: String, found: Set<String>) throws(CatalogError) {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        let gone: [String] = try read { db in
            try String.fetchAll(
                db,
                sql: "SELECT path FROM skipped_files WHERE path >= ? AND path < ?",
                arguments: [prefix, Self.upperBound(prefix)]
            ).filter { !found.contains($0) }
        }
        guard !gone.isEmpty else { return }
        try write { db in
            let statement = try db.cachedStatement(sql: "DELETE FROM skipped_files WHERE path = ?")
            for path in gone { try statement.execute(arguments: [path]) }
        }
    }

    /// The smallest string greater than every string starting with `prefix` (which ends in "/").
    static func upperBound(_ prefix: String) -> String { String(prefix.dropLast()) + "0" }

    /// Paths of the photos marked missing, in path order.
    public func missingPaths() throws(CatalogError) -> [String] {
        try read { db in
            try String.fetchAll(db, sql: "SELECT path FROM photos WHERE missingAt IS NOT NULL ORDER BY path")
        }
    }

    /// Deletes the photos marked missing, with their tasks, results and history (`photomill
    /// forget --missing`); returns their paths. The caller holds the catalog exclusively:
    /// a running coordinator could hold leases on them.
    public func forgetMissing() throws(CatalogError) -> [String] {
        try write { db in
            let paths = try String.fetchAll(
                db,
                sql: "SELECT path FROM photos WHERE missingAt IS NOT NULL ORDER BY path"
            )
            try db.execute(sql: "DELETE FROM photos WHERE missingAt IS NOT NULL")
            return paths
        }
    }

    /// Tasks of missing photos by kind and state, which the counts `status` and `run`
    /// show leave out (`task_counts` counts every task; the missing ones are few).
    static func missingTaskCounts(_ db: Database) throws -> [Kind: [TaskState: Int]] {
        var counts: [Kind: [TaskState: Int]] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT t.kind, t.state, COUNT(*) AS n FROM photos p INDEXED BY photos_missing JOIN tasks t ON t.photoId = p.id
                WHERE p.missingAt IS NOT NULL GROUP BY t.kind, t.state
                """
        ) {
            guard let kind = Kind(rawValue: row["kind"]), let state = TaskState(rawValue: row["state"]) else {
                continue
            }
            counts[kind, default: [:]][state] = row["n"]
        }
        return counts
    }

    /// Records a folder the scan could not list.
    public func recordUnreadableFolder(_ path: String, message: String, now: Double) throws(CatalogError) {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO unreadable_folders (path, message, at) VALUES (?, ?, ?)
                    ON CONFLICT(path) DO UPDATE SET message = excluded.message, at = excluded.at
                    """,
                arguments: [path, message, now]
            )
        }
    }

    /// After a complete walk of `root`: forgets the unreadable folders under it that the
    /// walk did not report again (read since, or gone).
    public func clearUnreadableFolders(under root: String, before scanStart: Double) throws(CatalogError) {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        try write { db in
            try db.execute(
                sql: "DELETE FROM unreadable_folders WHERE (path = ? OR (path >= ? AND path < ?)) AND at < ?",
                arguments: [root, prefix, Self.upperBound(prefix), scanStart]
            )
        }
    }

    /// Folders the scans could not list, matching `pathGlob` when given, by path.
    public func unreadableFolders(pathGlob: String? = nil) throws(CatalogError) -> [UnreadableFolder] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT path, message, at FROM unreadable_folders WHERE ? IS NULL OR path GLOB ? ORDER BY path",
                arguments: [pathGlob, pathGlob]
            )
            .map { UnreadableFolder(path: $0["path"], message: $0["message"], at: $0["at"]) }
        }
    }
}
