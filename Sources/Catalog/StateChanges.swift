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

/// The changes of task state one transaction makes, written to `task_counts` before it
/// commits (`write(_:)`). Triggers count inserted and deleted tasks; a change of state is
/// counted by the code that makes it, because an update trigger runs once per row: it
/// cost almost a quarter of the SQLite work per result (docs/catalog.md, task_counts).
/// Every statement that changes `tasks.state` records here what it changed.
struct StateChanges {
    /// By kind and state (`KindDescriptor.index` × `TaskState.allCases`, in case order).
    private var deltas = [Int](repeating: 0, count: Kind.allCases.count * TaskState.allCases.count)

    mutating func move(_ kind: Kind, from old: TaskState, to new: TaskState, count: Int = 1) {
        guard old != new else { return }
        deltas[Self.index(kind, old)] -= count
        deltas[Self.index(kind, new)] += count
    }

    /// The same, for names read from the catalog.
    mutating func move(_ kind: String, from old: String, to new: TaskState, count: Int = 1) {
        guard let kind = Kind(rawValue: kind), let old = TaskState(rawValue: old) else { return }
        move(kind, from: old, to: new, count: count)
    }

    func write(_ db: Database) throws {
        for kind in Kind.allCases {
            for state in TaskState.allCases {
                let delta = deltas[Self.index(kind, state)]
                guard delta != 0 else { continue }
                try db.cachedStatement(
                    sql: """
                        INSERT INTO task_counts (kind, state, n) VALUES (?, ?, ?)
                        ON CONFLICT (kind, state) DO UPDATE SET n = n + excluded.n
                        """
                ).execute(arguments: [kind.rawValue, state.rawValue, delta])
            }
        }
    }

    private static func index(_ kind: Kind, _ state: TaskState) -> Int {
        let stateIndex =
            switch state {
            case .pending: 0
            case .leased: 1
            case .done: 2
            case .failed: 3
            }
        return kind.descriptor.index * TaskState.allCases.count + stateIndex
    }
}
