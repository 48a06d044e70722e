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

// What operators change while the coordinator runs (`photomill pause`, `resume`, `retry`,
// `reprocess`, `prioritize`, the dashboard): the service reads it from the catalog twice
// a second (`.readSteering`), so a change takes effect within a second.
extension Scheduler {
    /// What `.readSteering` read: the last requeue mark and the kinds paused. A new mark
    /// (work put back behind the queues' positions, or a folder moved to the front) empties
    /// the queues, whose jobs are still pending in the catalog, and pages again from the
    /// front. A kind paused leaves the queues at once and is no longer paged; jobs already
    /// out finish. Then the pages due.
    mutating func steeringRead(
        requeueMark mark: Int64,
        paused nowPaused: Set<Kind>,
        at now: ClockReading
    ) -> [SchedulerAction] {
        var actions: [SchedulerAction] = []
        if mark != requeueMark {
            requeueMark = mark
            queues.restartAll()
        }
        if nowPaused != paused {
            let changed = nowPaused.symmetricDifference(paused)
            paused = nowPaused
            actions.append(.log(.pausedKindsChanged(paused: paused, changed: changed)))
            actions += capabilitiesChanged()
        }
        return actions + pageRequests(at: now)
    }
}
