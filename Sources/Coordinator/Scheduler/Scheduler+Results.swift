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

// RESULT and FAIL: what a worker says about the jobs it holds.
extension Scheduler {
    mutating func result(
        jobID: String,
        token: String,
        reports: [KindReport],
        from session: WorkerSession,
        at now: ClockReading
    ) -> [SchedulerAction] {
        guard let (entry, _) = claim(jobID, token: token, from: session) else {
            return settledBefore(jobID, token: token, command: "RESULT", from: session, at: now)
        }
        // A job taken back from a worker that was only slow: the commit finds the token
        // stale and records that.
        accept(Self.taskResults(reports, lease: entry.lease), of: entry, jobID: jobID, session: session, at: now)
        return []
    }

    mutating func fail(
        jobID: String,
        token: String,
        errorClass: ErrorClass,
        message: String,
        retryable: Bool,
        from session: WorkerSession,
        at now: ClockReading
    ) -> [SchedulerAction] {
        guard let (entry, held) = claim(jobID, token: token, from: session) else {
            return settledBefore(jobID, token: token, command: "FAIL", from: session, at: now)
        }
        if errorClass == .shuttingDown {
            // A draining worker hands the job back: no attempt used (PROTOCOL.md, error
            // classes). One taken back already came back then.
            if held && entry.isRunning { leases.handBack(entry.lease, message: message) }
            acks.append(PendingAck(routingId: session.routingId, jobID: jobID, token: entry.lease.token))
            return []
        }
        let outcome = TaskOutcome.failure(errorClass: errorClass, message: message, retryable: retryable)
        accept(Self.failures(outcome, lease: entry.lease), of: entry, jobID: jobID, session: session, at: now)
        return []
    }

    /// The lease a RESULT or FAIL answers, taken out of the table: the sender's own
    /// (`held`; its credit comes back), or one taken back from it when it was taken for dead.
    private mutating func claim(
        _ jobID: String,
        token: String,
        from session: WorkerSession
    ) -> (entry: LeaseTable.Entry, held: Bool)? {
        guard let entry = leases.claim(jobID, token: token, from: session.routingId, worker: session.workerId) else {
            return leases.departed(jobID, token: token).map { ($0, false) }
        }
        workers.credit(session, is: credit(of: session))
        workers.changed(session.routingId)
        return (entry, true)
    }

    /// A RESULT or FAIL for a job the sender does not hold: ACKed as discarded, so the
    /// worker forgets it. Re-sent after a lost ACK or a coordinator restart (PROTOCOL.md,
    /// "Reconnection and re-sending"), it is no violation; one for another worker's job, or
    /// under a token no coordinator issued, is counted `unknown-job`.
    private mutating func settledBefore(
        _ jobID: String,
        token: String,
        command: String,
        from session: WorkerSession,
        at now: ClockReading
    ) -> [SchedulerAction] {
        acks.append(PendingAck(routingId: session.routingId, jobID: jobID, token: token))
        guard !leases.isResend(token) else { return [] }
        return reject(
            session.routingId,
            .unknownJob,
            detail: "\(command) for a job it does not hold: " + jobID,
            at: now
        )
    }

    /// Results for the batch, an ACK once it is committed. A lease not written yet folds its
    /// successes into their results (one write: `LeaseTable.fold`).
    private mutating func accept(
        _ taskResults: [TaskResult],
        of entry: LeaseTable.Entry,
        jobID: String,
        session: WorkerSession,
        at now: ClockReading
    ) {
        let successes = taskResults.filter { if case .failure = $0.outcome { false } else { true } }
        if successes.count < taskResults.count { session.failed += 1 } else { session.done += 1 }
        let folded = leases.fold(entry.lease.token, succeeded: successes.map(\.kind))
        for result in taskResults {
            results.append(
                ReportedResult(
                    result: result,
                    worker: session.workerId,
                    startedAt: entry.lease.leasedAt,
                    endedAt: now.wall,
                    pagedUpdatedAt: folded[result.kind]
                )
            )
        }
        acks.append(PendingAck(routingId: session.routingId, jobID: jobID, token: entry.lease.token))
    }

    /// The task results of a RESULT for `lease`. A kind the lease names but the result
    /// lacks counts as a retryable failure (`protocol`), so no task is left leased forever;
    /// a kind it does not name is ignored.
    static func taskResults(_ reports: [KindReport], lease: Lease) -> [TaskResult] {
        lease.kinds.map { kind in
            guard let report = reports.first(where: { $0.kind == kind }) else {
                return TaskResult(
                    photoId: lease.photoId,
                    kind: kind,
                    leaseToken: lease.token,
                    outcome: .failure(
                        errorClass: .protocol,
                        message: "the worker sent no result for \(kind.rawValue)",
                        retryable: true
                    ),
                    recipe: ""
                )
            }
            return TaskResult(
                photoId: lease.photoId,
                kind: kind,
                leaseToken: lease.token,
                outcome: report.outcome,
                recipe: report.recipe
            )
        }
    }

    /// The same failure for every kind of `lease` (a FAIL, or a file the coordinator could not send).
    static func failures(_ outcome: TaskOutcome, lease: Lease) -> [TaskResult] {
        lease.kinds.map {
            TaskResult(photoId: lease.photoId, kind: $0, leaseToken: lease.token, outcome: outcome, recipe: "")
        }
    }
}
