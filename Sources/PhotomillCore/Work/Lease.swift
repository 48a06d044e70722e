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

/// A lease the coordinator granted: the tasks become `leased` under `token`.
public struct Lease: Sendable, Hashable {
    public var photoId: Int64
    public var kinds: [Kind]
    public var token: String
    public var worker: String
    public var leasedAt: Double
    public var expiresAt: Double
    /// The tasks' `updatedAt` when their job was paged (`PendingJob.updatedAt`): with it,
    /// a lease whose result comes in the same batch is never written (`Catalog.commit`).
    public var pagedUpdatedAt: [Double]

    public init(
        photoId: Int64,
        kinds: [Kind],
        token: String,
        worker: String,
        leasedAt: Double,
        expiresAt: Double,
        pagedUpdatedAt: [Double] = []
    ) {
        self.photoId = photoId
        self.kinds = kinds
        self.token = token
        self.worker = worker
        self.leasedAt = leasedAt
        self.expiresAt = expiresAt
        self.pagedUpdatedAt = pagedUpdatedAt
    }
}

/// A lease taken back without a result.
public struct Release: Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// The lease's deadline passed (a hung job, or a frozen worker).
        case leaseExpired
        /// The worker disconnected or stopped answering heartbeats.
        case workerLost
        /// The coordinator is stopping and hands the work back without using an attempt.
        case shutdown
        /// The JOB never left (the socket refused it) after its lease was written: handed
        /// back without using an attempt, as PROTOCOL.md has it ("A JOB whose send fails
        /// was never sent").
        case notSent

        /// Whether the attempt the lease took counts: not when the job never ran on its
        /// worker's account (the coordinator stopped, or never sent it).
        public var usesAttempt: Bool { self == .leaseExpired || self == .workerLost }

        /// The attempt it records (`attempts.outcome`), when it uses one.
        public var attemptOutcome: AttemptOutcome? {
            switch self {
            case .leaseExpired: .leaseExpired
            case .workerLost: .workerLost
            case .shutdown, .notSent: nil
            }
        }

        /// The error class a task ends with when this was its last attempt.
        public var finalErrorClass: ErrorClass {
            switch self {
            case .leaseExpired: .leaseExpired
            case .workerLost, .notSent: .workerLost
            case .shutdown: .interrupted
            }
        }
    }

    public var lease: Lease
    public var reason: Reason
    public var message: String

    public init(lease: Lease, reason: Reason, message: String) {
        self.lease = lease
        self.reason = reason
        self.message = message
    }
}

/// How one attempt ended: `attempts.outcome` (docs/catalog.md), the metrics' `outcome`.
public enum AttemptOutcome: String, Sendable, Hashable, CaseIterable {
    /// Its result was committed.
    case done
    /// It failed on the task's last attempt (or for good): the task is `failed`.
    case failed
    /// It failed and the task is pending again, after its backoff.
    case retry
    /// Its lease ran past its deadline.
    case leaseExpired = "lease-expired"
    /// Its worker was lost (or did not come back after a coordinator restart).
    case workerLost = "worker-lost"
    /// Its result came under a lease no longer held: recorded, discarded.
    case stale
}

/// A task: one photo and one kind.
public struct TaskKey: Sendable, Hashable {
    public var photoId: Int64
    public var kind: Kind

    public init(photoId: Int64, kind: Kind) {
        self.photoId = photoId
        self.kind = kind
    }
}
