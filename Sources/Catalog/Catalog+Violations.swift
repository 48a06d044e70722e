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

internal import GRDB
import PhotomillCore

extension Catalog {
    /// Adds dropped-message counts (by reason) to the running totals of table `violations`.
    func addViolations(_ db: Database, _ counts: [String: Int], now: Double) throws {
        for (reason, count) in counts where count > 0 {
            try db.execute(
                sql: """
                    INSERT INTO violations (reason, count, lastAt) VALUES (?, ?, ?)
                    ON CONFLICT (reason) DO UPDATE SET count = count + excluded.count, lastAt = excluded.lastAt
                    """,
                arguments: [reason, count, now]
            )
        }
    }

    /// Every dropped-message count since the catalog was created, by reason.
    func violationCounts(_ db: Database) throws -> [String: Int] {
        Dictionary(try ViolationRecord.fetchAll(db).map { ($0.reason, $0.count) }, uniquingKeysWith: +)
    }
}
