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
import MillProtocol
import PhotomillCore

// Leases: inherited at start, renewed by EXTEND, taken back when they expire.
extension Scheduler {
    /// Leases a previous coordinator granted, found in the catalog: their workers get
    /// `orphanGrace` seconds to come back (and re-send results) before they are released.
    mutating func adopt(_ found: [Lease], at now: ClockReading) -> [SchedulerAction] {
        guard !found.isEmpty else { return [] }
        leases.adopt(found, grace: configuration.orphanGrace, at: now)
        return [.log(.previousLeasesFound(count: found.count, graceSeconds: configuration.orphanGrace))]
    }

    /// EXTEND: moves the lease's deadline to `extra` from now, capped at `leaseCapFactor`
    /// times its longest kind's deadline from the grant, so that a job hung inside a worker
    /// whose socket thread still EXTENDs is taken back in the end.
    mutating func extend(
        jobID: String,
        token: String,
        extraSeconds: Double,
        from peer: Data,
        at now: ClockReading
    ) -> [SchedulerAction] {
        guard let entry = leases.running(jobID, token: token, heldBy: peer), let session = workers[peer] else {
            guard !leases.isDeparted(jobID, token: token), !leases.isResend(token) else { return [] }
            return reject(peer, .unknownJob, detail: "EXTEND for a job it does not hold: " + jobID, at: now)
        }
        // Taken back already: an honest worker still busy with it; its result will be stale.
        guard entry.isRunning else { return [] }
        let cap = entry.grantedAt + configuration.leaseCapFactor * configuration.deadline(for: entry.lease.kinds)
        leases.extend(token, to: Swift.min(now.monotonic + extraSeconds + session.leaseGrace, cap), at: now)
        return []
    }

    /// Inherited leases whose worker did not come back within the grace, and leases past
    /// their deadline, are released (an attempt each). An expired lease's job keeps its
    /// worker's slot until its late result comes.
    mutating func checkLeases(at now: ClockReading) -> [SchedulerAction] {
        if now.monotonic > startedAt + configuration.orphanGrace {
            // Their own deadlines may be minutes away: it does not matter, nobody works on them.
            leases.releasePreviousRun { "worker \($0.lease.worker) did not come back after a coordinator restart" }
        }
        let expired = leases.expire(at: now) { "job ran past its deadline on worker \($0.lease.worker)" }
        counts.leaseExpirations += expired.count
        return expired.map {
            .log(
                .leaseExpired(
                    jobID: $0.jobID,
                    worker: $0.lease.worker,
                    photoId: $0.lease.photoId,
                    kinds: $0.lease.kinds
                )
            )
        }
    }
}
