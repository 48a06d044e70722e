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

/// One tier's work in the scheduler (`Kind.tier`): the jobs paged in, and where the next
/// page starts. Each tier is paged on its own, so a worker that offers only OCR finds OCR
/// jobs however long the cheap tiers' backlog is, and a paused tier costs no read.
struct TierQueue {
    var jobs = ReadyQueue()
    var paging = Paging.after(.start)

    enum Paging: Equatable {
        /// The next page starts after this position.
        case after(QueuePosition)
        /// The last page came back short: nothing more is due now. The next page starts
        /// from the front, once the queue is empty and not before `lookAgainAt` (a quarter
        /// of a second after a page that found nothing, not on every loop turn).
        case reachedEnd(lookAgainAt: MonotonicInstant)
    }

    /// Forgets what was paged (it is still pending in the catalog, so nothing is lost) and
    /// pages again from the front.
    mutating func restart() {
        jobs.removeAll()
        paging = .after(.start)
    }

    /// Where the next page starts, if one is due: the queue is below a quarter of `limit`.
    mutating func nextPage(limit: Int, at now: MonotonicInstant) -> QueuePosition? {
        guard jobs.count < limit / 4 else { return nil }
        switch paging {
        case .after(let position):
            return position
        case .reachedEnd(let lookAgainAt):
            guard jobs.isEmpty, now >= lookAgainAt else { return nil }
            paging = .after(.start)
            return .start
        }
    }

    /// A page asked for `limit` jobs came back (before the jobs of unwritten leases were
    /// left out of it: `queued`).
    mutating func fetched(_ page: [PendingJob], limit: Int, queued: [PendingJob], at now: MonotonicInstant) {
        if page.count < limit {
            paging = .reachedEnd(lookAgainAt: page.isEmpty ? now + 0.25 : .distantPast)
        } else if let last = page.last {
            paging = .after(last.position)
        }
        jobs.append(contentsOf: queued)
    }
}
