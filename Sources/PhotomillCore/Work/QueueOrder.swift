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

// The order pending work is paged in (docs/catalog.md, "The order of work"; the decision
// in docs/architecture.md): by tier, cheap kinds of the whole library first, and within a
// tier by rank, then photo.

/// `tasks.rank`: the order of the pending work of one tier, lowest first.
public enum TaskRank {
    /// What a scan gives the tasks it queues or re-queues: minus the second it ran, so that
    /// new and changed files go ahead of an older backlog (0: work queued before migration
    /// v7-steering, behind everything since).
    public static func scanned(at now: Double) -> Int64 { -Int64(now.rounded(.down)) }

    /// Ranks below this belong to folders given to `photomill prioritize`, the latest
    /// first: ahead of every scan's work, and of the cheaper tiers too.
    public static let prioritized: Int64 = -(1 << 40)

    /// The rank of the `sequence`th prioritization (its `requeues` row).
    public static func prioritized(_ sequence: Int64) -> Int64 { prioritized - sequence }

    public static func isPrioritized(_ rank: Int64) -> Bool { rank < prioritized }
}

/// Where a page of a tier's pending work starts: after this rank and photo.
public struct QueuePosition: Sendable, Hashable, Comparable {
    public var rank: Int64
    public var photoId: Int64

    public init(rank: Int64, photoId: Int64) {
        self.rank = rank
        self.photoId = photoId
    }

    /// Before every task.
    public static let start = QueuePosition(rank: .min, photoId: 0)

    public static func < (lhs: QueuePosition, rhs: QueuePosition) -> Bool {
        (lhs.rank, lhs.photoId) < (rhs.rank, rhs.photoId)
    }
}
