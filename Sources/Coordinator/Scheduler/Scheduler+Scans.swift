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

// New work from the scanner (a file changed, a folder came in): the service is woken by
// the scanner and tells the scheduler at once, instead of it finding the tasks at the
// next page it reads. A scan ranks its tasks ahead of an older backlog (`TaskRank`), so
// a queue paged past them must start again from the front.
extension Scheduler {
    /// A scan queued tasks: every tier pages again from the front (its queued jobs are
    /// still pending in the catalog: nothing is lost), and the pages are asked for now.
    mutating func scanQueuedWork(at now: ClockReading) -> [SchedulerAction] {
        queues.restartAll()
        return pageRequests(at: now)
    }
}
