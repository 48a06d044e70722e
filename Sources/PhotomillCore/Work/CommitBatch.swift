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

/// One reported result with the facts of its attempt.
public struct ReportedResult: Sendable, Hashable {
    public var result: TaskResult
    public var worker: String
    public var startedAt: Double
    public var endedAt: Double
    /// Set when the result's lease was never written (*folded*: the lease and its result
    /// are one write): the task's `updatedAt` as its job was paged, which it must still have
    /// for the result to count (`Catalog.commit`). Only successes fold (`LeaseTable.fold`).
    public var pagedUpdatedAt: Double?

    public init(result: TaskResult, worker: String, startedAt: Double, endedAt: Double, pagedUpdatedAt: Double? = nil) {
        self.result = result
        self.worker = worker
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.pagedUpdatedAt = pagedUpdatedAt
    }

    public var isSuccess: Bool {
        if case .failure = result.outcome { return false }
        return true
    }
}

/// Everything the coordinator commits in one transaction, written in this order: leases,
/// EXTENDs, results, releases, workers, violations, waits.
public struct CommitBatch: Sendable {
    /// Leases to write, each with the kinds to lease (a folded kind is left out: its result
    /// carries `pagedUpdatedAt` instead).
    public var leases: [Lease] = []
    public var extensions: [(token: String, expiresAt: Double)] = []
    public var results: [ReportedResult] = []
    public var releases: [Release] = []
    public var workers: [WorkerRow] = []
    /// Dropped protocol messages by reason, counted since the last commit.
    public var violations: [String: Int] = [:]
    /// Why each kind waits, when it changed since the last commit (it replaces the catalog's).
    public var waits: [Kind: WaitReason]?

    public init() {}

    public var isEmpty: Bool {
        leases.isEmpty && extensions.isEmpty && results.isEmpty && releases.isEmpty && workers.isEmpty
            && violations.isEmpty
            && waits == nil
    }
}

public struct CommitReport: Sendable {
    /// Results written, by lease token.
    public var committed: Set<String> = []
    /// Results whose lease was no longer valid, by lease token: acknowledged, discarded.
    public var stale: Set<String> = []
    /// Tasks whose last attempt failed (now `failed`).
    public var failedTasks = 0
    /// Tasks sent back to `pending` for another attempt.
    public var retriedTasks = 0
    /// Photo ids whose results changed (for the exporter).
    public var touchedPhotos: Set<Int64> = []
    /// Stale results of photos no longer in the catalog (`forget --missing` since their
    /// job went out): in `stale`, with no attempts row, which could not reference them.
    public var forgottenResults = 0

    public init() {}
}
