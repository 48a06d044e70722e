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

// What a scan asks the catalog: the rows of the paths it found, one statement a batch, and
// after a full scan whether every photo has its tasks. What it found is written by `record`
// (Catalog+Record.swift).
extension Catalog {
    /// What the catalog knows of these paths: photos (with their format) and skipped files.
    public func knownFiles(
        _ paths: [String]
    ) throws(CatalogError) -> (photos: [String: KnownFile], skipped: [String: FileStamp]) {
        guard !paths.isEmpty else { return ([:], [:]) }
        // The batch's paths as one JSON array, looked up in one statement each (`json_each`):
        // a statement per path spent more in its own round trip than in SQLite (a start-up
        // scan of 100,000 unchanged files took 2.4-4.3 s, find(1) 0.3 s).
        let list = Self.jsonArray(paths)
        return try read { db in
            var photos: [String: KnownFile] = [:]
            var skipped: [String: FileStamp] = [:]
            photos.reserveCapacity(paths.count)
            let photo = try db.cachedStatement(
                sql: """
                    SELECT id, size, mtimeNs, ctimeNs, format, md5, missingAt IS NOT NULL, sidecarPath, sidecarSize, sidecarMtimeNs, path
                    FROM photos WHERE path IN (SELECT value FROM json_each(?))
                    """
            )
            let rows = try Row.fetchCursor(photo, arguments: [list])
            while let row = try rows.next() { photos[row[10]] = Self.knownFile(row) }
            guard photos.count < paths.count else { return (photos, skipped) }
            let other = try db.cachedStatement(
                sql: "SELECT size, mtimeNs, path FROM skipped_files WHERE path IN (SELECT value FROM json_each(?))"
            )
            let others = try Row.fetchCursor(other, arguments: [list])
            while let row = try others.next() {
                let path: String = row[2]
                if photos[path] == nil { skipped[path] = FileStamp(size: row[0], mtimeNs: row[1]) }
            }
            return (photos, skipped)
        }
    }

    /// The photos whose path lies under the folder `prefix` (which ends in "/") and after
    /// `after` (nil: from the first), in path order (SQLite's, the bytes of their UTF-8),
    /// at most `limit`: the catalog's side of a walk that goes in the same order
    /// (`Scanner.CatalogOrder`), read a piece at a time so that no read transaction spans
    /// the walk and memory stays bounded.
    public func photos(
        under prefix: String,
        after: String?,
        limit: Int
    ) throws(CatalogError) -> [(path: String, file: KnownFile)] {
        try read { db in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT id, size, mtimeNs, ctimeNs, format, md5, missingAt IS NOT NULL, sidecarPath, sidecarSize, sidecarMtimeNs, path
                    FROM photos WHERE path > ? AND path < ? ORDER BY path LIMIT ?
                    """
            )
            // Every path under the folder is greater than the prefix itself.
            let rows = try Row.fetchCursor(statement, arguments: [after ?? prefix, Self.upperBound(prefix), limit])
            var found: [(path: String, file: KnownFile)] = []
            found.reserveCapacity(limit)
            while let row = try rows.next() { found.append((row[10], Self.knownFile(row))) }
            return found
        }
    }

    /// A `KnownFile` of a row of id, size, mtimeNs, ctimeNs, format, md5, missing, sidecarPath, sidecarSize, sidecarMtimeNs.
    private static func knownFile(_ row: Row) -> KnownFile {
        KnownFile(
            id: row[0],
            stamp: FileStamp(size: row[1], mtimeNs: row[2]),
            ctimeNs: row[3],
            format: (row[4] as String?).flatMap(MediaFormat.init(rawValue:)),
            md5: row[5],
            missing: row[6],
            sidecar: (row[7] as String?).map { Sidecar(path: $0, size: row[8] ?? 0, mtimeNs: row[9] ?? 0) }
        )
    }

    /// Ids as a JSON array, for `json_each`.
    static func jsonArray(_ ids: some Sequence<Int64>) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// Strings as a JSON array (RFC 8259: `"`, `\\` and control characters escaped), for
    /// `json_each`; JSONEncoder took a fifth of a scan's time on it.
    static func jsonArray(_ strings: [String]) -> String {
        var json = "["
        json.reserveCapacity(strings.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, string) in strings.enumerated() {
            if index > 0 { json += "," }
            json += "\""
            guard string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
            else {
                json += string + "\""
                continue
            }
            for scalar in string.unicodeScalars {
                switch scalar {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                case _ where scalar.value < 0x20: json += String(format: "\\u%04x", scalar.value)
                default: json.unicodeScalars.append(scalar)
                }
            }
            json += "\""
        }
        return json + "]"
    }

    /// After a full scan of `root`: every photo under it gets a task of each kind asked
    /// for that its type has and it never had (the scan leaves unchanged photos unwritten:
    /// this is their `ensureTasks`, one statement per kind). Returns the tasks created.
    public func ensureTasks(under root: String, kinds: Set<Kind>, now: Double) throws(CatalogError) -> Int {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return try write { db in
            var created = 0
            for kind in kinds.sorted() {
                let types = MediaType.allCases.filter { $0.kinds(of: [kind]).contains(kind) }.map { "'\($0.rawValue)'" }
                guard !types.isEmpty else { continue }
                // NOT EXISTS rather than INSERT OR IGNORE: the same rows, but a probe of the primary
                // key instead of an attempted insert per photo (0.20 s against 0.34-0.44 s for two
                // kinds of 121,000 photos at every start).
                try db.execute(
                    sql: """
                        INSERT INTO tasks (photoId, kind, updatedAt, rank)
                        SELECT id, ?, ?, ? FROM photos p
                        WHERE path >= ? AND path < ? AND mediaType IN (\(types.joined(separator: ", "))) AND missingAt IS NULL
                          AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.photoId = p.id AND t.kind = ?)
                        """,
                    arguments: [
                        kind.rawValue, now, TaskRank.scanned(at: now), prefix, Self.upperBound(prefix), kind.rawValue,
                    ]
                )
                created += db.changesCount
            }
            return created
        }
    }

    /// Whether every present photo of a type that has a kind of `kinds` has its task of
    /// that kind: counted rather than probed photo by photo. A task belongs to one photo,
    /// once a kind, so the tasks of a kind, less those of photos missing or of other types
    /// or none (few; probed one by one), are as many as the present photos of its types
    /// exactly when none lacks one. When it holds, a start needs no `ensureTasks(under:)`
    /// pass, which probes the tasks of every photo (0.1 s a kind for 120,000 photos).
    public func hasEveryTask(of kinds: Set<Kind>) throws(CatalogError) -> Bool {
        try read { db in
            for kind in kinds.sorted() {
                let types = MediaType.allCases.filter { $0.kinds(of: [kind]).contains(kind) }
                guard !types.isEmpty else { continue }
                let list = types.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                let others = MediaType.allCases.filter { !types.contains($0) }.map { "'\($0.rawValue)'" }
                let ofTypes = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photos WHERE mediaType IN (\(list))") ?? 0
                let missing =
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM photos INDEXED BY photos_missing WHERE missingAt IS NOT NULL AND mediaType IN (\(list))
                            """
                    ) ?? 0
                let tasks =
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tasks WHERE kind = ?", arguments: [kind.rawValue])
                    ?? 0
                let elsewhere =
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM tasks WHERE kind = ? AND photoId IN (
                                SELECT id FROM photos INDEXED BY photos_missing WHERE missingAt IS NOT NULL
                                UNION SELECT id FROM photos WHERE mediaType IS NULL\(others.isEmpty ? "" : " OR mediaType IN (\(others.joined(separator: ", ")))"))
                            """,
                        arguments: [kind.rawValue]
                    ) ?? 0
                if tasks - elsewhere != ofTypes - missing { return false }
            }
            return true
        }
    }
}
