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

// The tables the read side and the operator commands read and write by record, each
// with its columns named once (RecordRecommendedPractices.md).

/// A row of `workers` (`WorkerRow`, the public value): the status's workers.
struct WorkerRecord: FetchableRecord, TableRecord, Decodable {
    static let databaseTableName = "workers"

    enum Columns {
        static let id = Column("id")
        static let state = Column("state")
        static let inFlight = Column("inFlight")
    }

    var worker: WorkerRow

    init(from decoder: any Decoder) throws { worker = try WorkerRow(from: decoder) }
}

/// A row of `pauses`: a kind an operator paused, why and since when.
struct PauseRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "pauses"

    enum CodingKeys: String, CodingKey { case kind, reason, pausedAt }

    enum Columns {
        static let kind = Column(CodingKeys.kind)
        static let reason = Column(CodingKeys.reason)
        static let pausedAt = Column(CodingKeys.pausedAt)
    }

    /// Text, not `Kind`: a kind this code does not know is left out, not an error.
    var kind: String
    var reason: String
    var pausedAt: Double
}

/// A row of `requeues`: an operator command that put work back (retry, reprocess,
/// prioritize); its id tells a running coordinator to page again from the front.
struct RequeueRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "requeues"

    enum CodingKeys: String, CodingKey { case id, at, command, filter, tasks }

    enum Columns {
        static let id = Column(CodingKeys.id)
    }

    var id: Int64?
    var at: Double
    var command: String
    var filter: String
    var tasks: Int

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A row of `violations`: dropped messages of one reason since the catalog was made.
struct ViolationRecord: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "violations"

    var reason: String
    var count: Int
}

/// A row of `task_counts`: the tasks of one kind in one state, kept by the catalog code
/// and two triggers (docs/catalog.md). Text, not `Kind`: a kind this code does not know
/// is left out, not an error.
struct TaskCountRecord: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "task_counts"

    enum CodingKeys: String, CodingKey { case kind, state, n }

    enum Columns {
        static let n = Column(CodingKeys.n)
    }

    var kind: String
    var state: String
    var n: Int
}
