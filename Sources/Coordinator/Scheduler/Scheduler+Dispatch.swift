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
import PhotomillCore

// Work: paged in from the catalog tier by tier, handed to workers with credit, cheap
// tiers first, heartbeats when idle.
extension Scheduler {
    /// Twice a second the service reads what operators changed (`.readSteering`, then
    /// `steeringRead`, which pages what is needed); otherwise a page for each tier whose
    /// queue runs low.
    mutating func refill(at now: ClockReading) -> [SchedulerAction] {
        guard state == .running else { return [] }
        if now.monotonic >= nextSteeringCheck {
            nextSteeringCheck = now.monotonic + 0.5
            return [.readSteering]
        }
        return pageRequests(at: now)
    }

    mutating func pageRequests(at now: ClockReading) -> [SchedulerAction] {
        queues.pageRequests(limit: readyQueueLimit, dueBy: now.wall, at: now.monotonic).map { .fetchPage($0) }
    }

    /// The page `.fetchPage(request)` read. Leases granted since the last commit are not
    /// in the catalog yet, so the page is filtered against them (`LeaseTable`).
    mutating func pageFetched(_ page: [PendingJob], for request: PageRequest, at now: ClockReading) {
        queues.pageFetched(page, for: request, queued: leases.leavingOutUnwritten(page), at: now.monotonic)
    }

    /// Hands queued jobs to the workers with free credit, the one that has waited longest
    /// for work first (`CreditQueue`), so that none waits behind the others; each takes
    /// the most urgent job it can take part of (`TierQueues.takeNext`; a worker fed bytes gets
    /// the photo's later tiers that travel with them in the same job). A worker's jobs of
    /// one turn go out together (JOBS, PROTOCOL.md "Batches"): a worker with many free slots
    /// and tiny work gets them in one message. Then heartbeats the workers it has sent
    /// nothing for an interval. Each job's lease is granted here, at `now`.
    mutating func dispatch(at now: ClockReading) -> [SchedulerAction] {
        guard state == .running else { return [] }
        var actions: [SchedulerAction] = []
        // Served, and with credit left (the queues ran dry, or it offers nothing queued):
        // first in line again next time.
        var waiting: [Data] = []
        let language = configuration.parameters.ocrLanguage
        while queues.jobCount > 0, let peer = workers.withCredit.popFirst() {
            guard let session = workers[peer] else { continue }
            var orders: [JobOrder] = []
            while credit(of: session) > 0,
                let job = queues.takeNext(
                    share: { session.share(of: $0, ocrLanguage: language) },
                    fed: { !session.reads($0.path) }
                )
            {
                orders.append(grant(job, to: session, at: now))
            }
            if !orders.isEmpty { actions.append(.sendJobs(orders, to: peer)) }
            if credit(of: session) > 0 { waiting.append(peer) }
        }
        workers.withCredit.prepend(waiting)
        for session in workers.heartbeats.due(at: now.monotonic) where workers[session.routingId] === session {
            if now.monotonic - session.lastSent >= session.heartbeatInterval {
                actions.append(.send(.heartbeat, to: session.routingId))
                session.lastSent = now.monotonic
            }
            workers.heartbeats.schedule(session, at: session.lastSent + session.heartbeatInterval)
        }
        return actions
    }

    /// The lease of `job` for `session`, and the order to send it. The lease runs for the
    /// job's longest deadline plus the worker's grace; the JOB carries the deadlines alone.
    private mutating func grant(_ job: PendingJob, to session: WorkerSession, at now: ClockReading) -> JobOrder {
        let seconds = configuration.deadline(for: job.kinds) + session.leaseGrace
        let (jobID, token) = leases.grant(
            job,
            to: session.routingId,
            worker: session.workerId,
            seconds: seconds,
            at: now
        )
        session.lastSent = now.monotonic
        workers.changed(session.routingId)
        return JobOrder(jobID: jobID, token: token, job: job, fileInBlobs: !session.reads(job.path))
    }

    /// A job `dispatch` granted never left: its credit comes back. A job the socket refused
    /// goes back to the front of the queue, its lease forgotten when it was not written yet,
    /// else handed back without using an attempt (PROTOCOL.md: "A JOB whose send fails was
    /// never sent"); a file the coordinator could not read is settled like a FAIL.
    mutating func jobNotSent(_ order: JobOrder, because reason: NotSent, at now: ClockReading) -> [SchedulerAction] {
        let holder = leases.entries[order.token]?.holder
        defer { if let session = holder.flatMap({ workers[$0] }) { workers.credit(session, is: credit(of: session)) } }
        switch reason {
        case .unreachable:
            guard let withdrawal = leases.withdraw(order.token) else { return [] }
            if case .forgotten = withdrawal { queues.putBack(order.job) }
            return []
        case .fileUnreadable(let errorClass, let text):
            guard let entry = leases.settle(order.token) else { return [] }
            // An attempt, with the cause: the lease is written with its failure.
            let outcome = TaskOutcome.failure(errorClass: errorClass, message: text, retryable: true)
            for result in Self.failures(outcome, lease: entry.lease) {
                results.append(
                    ReportedResult(
                        result: result,
                        worker: entry.lease.worker,
                        startedAt: entry.lease.leasedAt,
                        endedAt: now.wall
                    )
                )
            }
            return [
                .log(
                    .fileNotSent(
                        path: order.job.path,
                        worker: entry.lease.worker,
                        jobID: order.jobID,
                        errorClass: errorClass,
                        message: text
                    )
                )
            ]
        }
    }
}
