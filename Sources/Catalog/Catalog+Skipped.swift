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
    /// What the scans left out, by path: of one reason, or matching `pathGlob` (an SQLite
    /// GLOB over absolute paths, as `--path` takes), when given.
    public func skippedFiles(reason: SkipReason? = nil, pathGlob: String? = nil) throws(CatalogError) -> [SkippedFile] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT path, reason, detail, size, scannedAt FROM skipped_files
                    WHERE (? IS NULL OR reason = ?) AND (? IS NULL OR path GLOB ?) ORDER BY path
                    """,
                arguments: [reason?.rawValue, reason?.rawValue, pathGlob, pathGlob]
            ).map { row in
                SkippedFile(
                    path: row["path"],
                    reason: SkipReason(rawValue: row["reason"]) ?? .notMedia,
                    detail: row["detail"],
                    size: row["size"],
                    scannedAt: row["scannedAt"]
                )
            }
        }
    }

    /// How many were left out, per reason.
    public func skippedCounts() throws(CatalogError) -> [SkipReason: Int] {
        try read { db in try Self.skippedCounts(db) }
    }

    static func skippedCounts(_ db: Database) throws -> [SkipReason: Int] {
        var counts: [SkipReason: Int] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT reason, COUNT(*) AS n FROM skipped_files GROUP BY reason") {
            counts[SkipReason(rawValue: row["reason"]) ?? .notMedia, default: 0] += row["n"]
        }
        return counts
    }
}
