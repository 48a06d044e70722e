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

/// A rescan asked of the running coordinator (`photomill scan`, `POST /api/v1/scan`, the
/// dashboard's button, SIGHUP), through the catalog as `pause` is: it works from any shell
/// on the host, and the asker learns when it is done by reading the row back.
public struct ScanRequest: Sendable, Hashable, Codable {
    public var id: Int64
    /// Folders or files to scan again; nil: every scanned folder.
    public var paths: [String]?
    /// Who asked: `command`, `api`, `signal`.
    public var origin: String
    public var requestedAt: Double
    public var startedAt: Double?
    public var finishedAt: Double?
    /// What the scan found.
    public var summary: ScanSummary?
}

extension Catalog {
    /// Asks for a rescan; returns its id.
    public func requestScan(paths: [String]?, origin: String, now: Double) throws(CatalogError) -> Int64 {
        let encoded = paths.map { String(decoding: (try? JSONEncoder().encode($0)) ?? Data(), as: UTF8.self) }
        return try write { db in
            try db.execute(
                sql: "INSERT INTO scan_requests (paths, origin, requestedAt) VALUES (?, ?, ?)",
                arguments: [encoded, origin, now]
            )
            return db.lastInsertedRowID
        }
    }

    /// Requests no scan has started yet, oldest first.
    public func waitingScanRequests() throws(CatalogError) -> [ScanRequest] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM scan_requests WHERE startedAt IS NULL ORDER BY id").map(
                Self.scanRequest
            )
        }
    }

    public func scanRequest(id: Int64) throws(CatalogError) -> ScanRequest? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM scan_requests WHERE id = ?", arguments: [id]).map(Self.scanRequest)
        }
    }

    public func startScanRequests(_ ids: [Int64], now: Double) throws(CatalogError) {
        try write { db in
            for id in ids {
                try db.execute(sql: "UPDATE scan_requests SET startedAt = ? WHERE id = ?", arguments: [now, id])
            }
        }
    }

    public func finishScanRequests(_ ids: [Int64], summary: ScanSummary, now: Double) throws(CatalogError) {
        let encoded = String(decoding: (try? JSONEncoder().encode(summary)) ?? Data(), as: UTF8.self)
        try write { db in
            for id in ids {
                try db.execute(
                    sql: "UPDATE scan_requests SET finishedAt = ?, summary = ? WHERE id = ?",
                    arguments: [now, encoded, id]
                )
            }
            // Keep the last hundred.
            try db.execute(sql: "DELETE FROM scan_requests WHERE id <= (SELECT MAX(id) FROM scan_requests) - 100")
        }
    }

    private static func scanRequest(_ row: Row) -> ScanRequest {
        let decoder = JSONDecoder()
        return ScanRequest(
            id: row["id"],
            paths: (row["paths"] as String?).flatMap { try? decoder.decode([String].self, from: Data($0.utf8)) },
            origin: row["origin"],
            requestedAt: row["requestedAt"],
            startedAt: row["startedAt"],
            finishedAt: row["finishedAt"],
            summary: (row["summary"] as String?).flatMap { try? decoder.decode(ScanSummary.self, from: Data($0.utf8)) }
        )
    }
}
