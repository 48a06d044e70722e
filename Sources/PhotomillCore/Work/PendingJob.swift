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

/// Pending work for one photo, as the scheduler pages it from the catalog.
public struct PendingJob: Sendable, Hashable {
    public var photoId: Int64
    public var path: String
    public var size: Int64
    public var mtimeNs: Int64
    public private(set) var kinds: [Kind]
    /// Each kind's `tasks.updatedAt` as the page read it, in the order of `kinds` (empty
    /// when unknown): a lease written together with its result applies only to a task
    /// still exactly as paged (`Catalog.commit`), whatever the wall clock did meanwhile.
    public private(set) var updatedAt: [Double]
    /// The photo's XMP sidecar, which its metadata task reads too.
    public var sidecar: Sidecar?
    /// Its tasks' `rank` (one tier's order, `TaskRank`).
    public var rank: Int64

    /// Where it stands in its tier's queue.
    public var position: QueuePosition { QueuePosition(rank: rank, photoId: photoId) }
    /// Its kinds' tier (the kinds of a job share one).
    public var tier: Int { kinds.first?.tier ?? 0 }

    /// The sidecar, when this job computes the metadata that reads it.
    public var metadataSidecar: Sidecar? { kinds.contains(.metadata) ? sidecar : nil }

    public init(
        photoId: Int64,
        path: String,
        size: Int64,
        mtimeNs: Int64,
        kinds: [Kind],
        updatedAt: [Double] = [],
        sidecar: Sidecar? = nil,
        rank: Int64 = 0
    ) {
        precondition(updatedAt.isEmpty || updatedAt.count == kinds.count, "one updatedAt per kind")
        self.photoId = photoId
        self.path = path
        self.size = size
        self.mtimeNs = mtimeNs
        self.kinds = kinds
        self.updatedAt = updatedAt
        self.sidecar = sidecar
        self.rank = rank
    }

    /// Keeps the kinds (and their `updatedAt`) that `keep` says.
    public mutating func keepKinds(where keep: (Kind) -> Bool) {
        guard !updatedAt.isEmpty else { return kinds.removeAll { !keep($0) } }
        let kept = zip(kinds, updatedAt).filter { keep($0.0) }
        kinds = kept.map(\.0)
        updatedAt = kept.map(\.1)
    }

    /// Whether `other` (the same photo's job of a later tier) can join this job: the same
    /// file as both pages saw it, both read with their `updatedAt` or both without.
    public func canJoin(_ other: PendingJob) -> Bool {
        other.photoId == photoId && other.path == path && other.size == size && other.mtimeNs == mtimeNs
            && updatedAt.isEmpty == other.updatedAt.isEmpty
    }

    /// Takes `other`'s kinds (the same photo's, of a later tier: `canJoin`) into this job,
    /// which keeps its tier and rank (PROTOCOL.md, "Each file's bytes once"); a kind it has
    /// already (the same task paged twice) is not taken twice.
    public mutating func join(_ other: PendingJob) {
        precondition(canJoin(other), "a job joins only the same photo's, read alike")
        for (index, kind) in other.kinds.enumerated() where !kinds.contains(kind) {
            kinds.append(kind)
            if !updatedAt.isEmpty { updatedAt.append(other.updatedAt[index]) }
        }
    }

    /// One more kind, as a page reads it (`Catalog.pendingJobs`).
    public mutating func add(_ kind: Kind, updatedAt stamp: Double) {
        kinds.append(kind)
        updatedAt.append(stamp)
    }
}

/// A photo's XMP sidecar as the scan saw it: its changes re-run only the photo's metadata.
public struct Sidecar: Sendable, Hashable {
    public var path: String
    public var size: Int64
    public var mtimeNs: Int64

    public init(path: String, size: Int64, mtimeNs: Int64) {
        self.path = path
        self.size = size
        self.mtimeNs = mtimeNs
    }

    public var stamp: FileStamp { FileStamp(size: size, mtimeNs: mtimeNs) }
}
