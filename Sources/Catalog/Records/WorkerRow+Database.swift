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

/// A `workers` row written (read through `WorkerRecord`).
extension WorkerRow {
    func upsert(_ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO workers (id, host, softwareVersion, slots, kinds, ocrLanguages, state, connectedAt, lastSeen, inFlight, done, failed)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET host = excluded.host, softwareVersion = excluded.softwareVersion,
                    slots = excluded.slots, kinds = excluded.kinds, ocrLanguages = excluded.ocrLanguages, state = excluded.state,
                    lastSeen = excluded.lastSeen, inFlight = excluded.inFlight, done = excluded.done, failed = excluded.failed
                """
        ).execute(arguments: [
            id, host, softwareVersion, slots, kinds, ocrLanguages, state.rawValue, connectedAt, lastSeen,
            inFlight, done, failed,
        ])
    }
}
