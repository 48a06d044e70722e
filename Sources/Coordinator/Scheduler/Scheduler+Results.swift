import Catalog
import Foundation
import PhotomillCore

// RESULT, FAIL and EXTEND: what a worker says about the jobs it holds.
extension Scheduler {
    mutating func result(jobID: String, token: String, reports: [KindReport], from session: WorkerSession, at now: ClockReading) {
        guard let flight = claim(jobID, token: token, session: session) ?? departures.take(jobID, token: token) else {
            return settledBefore(jobID, token: token, command: "RESULT", from: session, at: now)
        }
        // A job taken back from a worker that was only slow: the commit finds the token
        // stale and records that.
        accept(Self.taskResults(reports, lease: flight.lease), flight: flight, jobID: jobID, session: session, at: now)
    }

    mutating func fail(jobID: String, token: String, errorClass: ErrorClass, message: String, retryable: Bool,
                       from session: WorkerSession, at now: ClockReading) {
        guard let flight = claim(jobID, token: token, session: session) ?? departures.take(jobID, token: token) else {
            return settledBefore(jobID, token: token, command: "FAIL", from: session, at: now)
        }
        if errorClass == .shuttingDown {
            // A draining worker hands the job back: no attempt used (PROTOCOL.md, error classes).
            batch.releases.append(Release(lease: flight.lease, reason: .shutdown, message: message))
            acks.append(PendingAck(routingId: session.routingId, jobID: jobID, token: flight.lease.token))
            return
        }
        let outcome = TaskOutcome.failure(errorClass: errorClass, message: message, retryable: retryable)
        accept(Self.failures(outcome, lease: flight.lease), flight: flight, jobID: jobID, session: session, at: now)
    }

    /// A RESULT or FAIL for a job the sender does not hold: ACKed as discarded, so the
    /// worker forgets it. Re-sent after a lost ACK or a coordinator restart (PROTOCOL.md,
    /// "Reconnection and re-sending"), it is no violation; one for another worker's job, or
    /// under a token no coordinator issued, is counted `unknown-job`.
    mutating func settledBefore(_ jobID: String, token: String, command: String, from session: WorkerSession, at now: ClockReading) {
        if !isResend(token) {
            reject(session.routingId, reason: "unknown-job", detail: "\(command) for a job it does not hold: " + jobID, at: now)
        }
        acks.append(PendingAck(routingId: session.routingId, jobID: jobID, token: token))
    }

    /// Whether a message under `token` for a job its sender does not hold may come from a
    /// conforming worker: the job was settled or taken back (this run or an earlier one),
    /// not leased to someone else now.
    func isResend(_ token: String) -> Bool {
        inFlight[token] == nil && tokens.couldHaveIssued(token)
    }

    /// The in-flight job a RESULT or FAIL answers, if the sender holds it.
    mutating func claim(_ jobID: String, token: String, session: WorkerSession) -> InFlight? {
        // A lease inherited from a previous coordinator is known by its token alone: the
        // job id the worker re-sends was given by that coordinator.
        guard let flight = inFlight[token], flight.jobID == jobID || flight.inherited else { return nil }
        let sameConnection: Bool = flight.routingId == session.routingId
        let sameWorker: Bool = flight.lease.worker == session.workerId
        guard sameConnection || sameWorker else { return nil }
        inFlight[token] = nil
        tokenForJob[flight.jobID] = nil
        session.holding.remove(token)
        creditChanged(session)
        changedWorkers.insert(session.routingId)
        return flight
    }

    mutating func accept(_ results: [TaskResult], flight: InFlight, jobID: String, session: WorkerSession, at now: ClockReading) {
        let failedAny: Bool = results.contains { (result: TaskResult) -> Bool in
            if case .failure = result.outcome { return true }
            return false
        }
        if failedAny { session.failed += 1 } else { session.done += 1 }
        for result in results {
            batch.results.append(ReportedResult(result: result, worker: session.workerId, startedAt: flight.lease.leasedAt, endedAt: now.wall))
        }
        acks.append(PendingAck(routingId: session.routingId, jobID: jobID, token: flight.lease.token))
    }

    /// The task results of a RESULT for `lease`. A kind the lease names but the result
    /// lacks counts as a retryable failure (`protocol`), so no task is left leased forever;
    /// a kind it does not name is ignored.
    static func taskResults(_ reports: [KindReport], lease: Lease) -> [TaskResult] {
        lease.kinds.map { kind in
            guard let report = reports.first(where: { $0.kind == kind }) else {
                return TaskResult(photoId: lease.photoId, kind: kind, leaseToken: lease.token,
                                  outcome: .failure(errorClass: .protocol, message: "the worker sent no result for \(kind.rawValue)", retryable: true),
                                  recipe: "")
            }
            return TaskResult(photoId: lease.photoId, kind: kind, leaseToken: lease.token, outcome: report.outcome, recipe: report.recipe)
        }
    }

    /// The same failure for every kind of `lease` (a FAIL, or a file the coordinator could not send).
    static func failures(_ outcome: TaskOutcome, lease: Lease) -> [TaskResult] {
        lease.kinds.map { TaskResult(photoId: lease.photoId, kind: $0, leaseToken: lease.token, outcome: outcome, recipe: "") }
    }
}
