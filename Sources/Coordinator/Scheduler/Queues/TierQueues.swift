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

import PhotomillCore

/// The scheduler's ready queues, one per tier, and the kinds worth paging into them: those
/// some connected worker offers and no operator paused (`available`).
struct TierQueues {
    private(set) var tiers: [TierQueue] = Kind.tiers.map { _ in TierQueue() }
    private(set) var available: Set<Kind> = []

    var jobCount: Int { tiers.reduce(0) { $0 + $1.jobs.count } }

    /// A page request for each tier whose queue runs low, each for up to `limit` jobs due
    /// by the wall-clock `dueBy`.
    mutating func pageRequests(limit: Int, dueBy: Double, at now: MonotonicInstant) -> [PageRequest] {
        Kind.tiers.compactMap { tier in
            guard let position = tiers[tier].nextPage(limit: limit, at: now) else { return nil }
            let kinds = available.filter { $0.tier == tier }
            guard !kinds.isEmpty else { return nil }
            return PageRequest(
                tier: tier,
                after: position,
                limit: limit - tiers[tier].jobs.count,
                kinds: kinds,
                dueBy: dueBy
            )
        }
    }

    /// The page `request` read; `queued`: its jobs the queue takes (`LeaseTable.leavingOutUnwritten`).
    mutating func pageFetched(
        _ page: [PendingJob],
        for request: PageRequest,
        queued: [PendingJob],
        at now: MonotonicInstant
    ) {
        tiers[request.tier].fetched(page, limit: request.limit, queued: queued, at: now)
    }

    /// The kinds worth paging changed (workers came or went, an operator paused or resumed):
    /// a tier that gained a kind is paged again from the front (work skipped so far may be
    /// takeable now); kinds no longer wanted leave the queues.
    mutating func setAvailable(_ kinds: Set<Kind>) {
        let gained = kinds.subtracting(available)
        let lost = available.subtracting(kinds)
        for tier in Set(gained.map(\.tier)) { tiers[tier].restart() }
        for tier in Set(lost.map(\.tier)) {
            tiers[tier].jobs.update { job in
                var job = job
                job.keepKinds { kinds.contains($0) }
                return job.kinds.isEmpty ? nil : job
            }
        }
        available = kinds
    }

    /// Every tier pages again from the front (a new requeue mark).
    mutating func restartAll() {
        for tier in Kind.tiers { tiers[tier].restart() }
    }

    /// The most urgent job a worker can take part of (`share`: the kinds of a job it can
    /// take): a prioritized folder's first (the latest prioritization first), then by tier,
    /// cheap kinds first. Within a tier the queue is in rank order already. What the worker
    /// does not offer stays queued.
    ///
    /// `fed`: whether the worker gets the job's file as bytes. Then the photo's kinds of later
    /// tiers that travel with its bytes (`KindDescriptor.travelsWithBytes`) and are queued
    /// join the job, so that the bytes cross once (PROTOCOL.md, "Each file's bytes once").
    mutating func takeNext(share: (PendingJob) -> [Kind], fed: (PendingJob) -> Bool = { _ in false }) -> PendingJob? {
        var best: (tier: Int, index: Int, kinds: [Kind], urgency: Int64)?
        for tier in Kind.tiers {
            guard let (index, kinds) = tiers[tier].jobs.firstShare(within: 256, share: share) else { continue }
            let rank = tiers[tier].jobs[index].rank
            let urgency = TaskRank.isPrioritized(rank) ? rank : 0
            if best == nil || urgency < best!.urgency { best = (tier, index, kinds, urgency) }
        }
        guard let best else { return nil }
        var job = tiers[best.tier].jobs.take(at: best.index, kinds: best.kinds)
        if fed(job) { joinLaterTiers(into: &job, share: share) }
        return job
    }

    /// Takes the photo's queued kinds of the tiers after `job`'s that the worker can do and
    /// that travel with the bytes into `job`. The paging of each tier follows the same order
    /// (rank, photo), so the photo's later work is near the front of its queue.
    private mutating func joinLaterTiers(into job: inout PendingJob, share: (PendingJob) -> [Kind]) {
        for tier in Kind.tiers where tier > job.tier {
            guard let index = tiers[tier].jobs.firstIndex(where: job.canJoin) else { continue }
            let kinds = share(tiers[tier].jobs[index]).filter(\.descriptor.travelsWithBytes)
            guard !kinds.isEmpty else { continue }
            job.join(tiers[tier].jobs.take(at: index, kinds: kinds))
        }
    }

    /// A job that could not be sent goes back to the front of its queue.
    mutating func putBack(_ job: PendingJob) {
        tiers[job.tier].jobs.putBack(job)
    }
}
