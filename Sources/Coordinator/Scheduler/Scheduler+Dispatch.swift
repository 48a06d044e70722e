import Catalog
import Foundation
import Logging
import PhotomillCore

// Work: paged in from the catalog, handed to workers with credit, heartbeats when idle.
extension Scheduler {
    /// `retry` and `reprocess` put tasks back behind the cursor (and a queue of jobs no
    /// worker can take would keep it from wrapping): every half second the service reads
    /// the catalog's requeue mark for `requeueMarkRead`, which pages again from the start
    /// when it moved. Then, or without the read, a page of due work is asked for.
    mutating func refill(at now: ClockReading) -> [SchedulerAction] {
        if now.monotonic >= nextRequeueCheck {
            nextRequeueCheck = now.monotonic + 0.5
            return [.readRequeueMark]
        }
        return pageRequest(at: now).map { [.fetchPage($0)] } ?? []
    }

    /// The catalog's requeue mark, read for `.readRequeueMark`: a new one empties the ready
    /// queue (its jobs are still pending in the catalog, so none is lost) and pages again
    /// from the start.
    mutating func requeueMarkRead(_ mark: Int64, at now: ClockReading) -> [SchedulerAction] {
        if mark != requeueMark {
            requeueMark = mark
            readyQueue.removeAll()
            cursor = 0
            reachedEnd = false
        }
        return pageRequest(at: now).map { [.fetchPage($0)] } ?? []
    }

    private mutating func pageRequest(at now: ClockReading) -> PageRequest? {
        if reachedEnd {
            guard readyQueue.isEmpty else { return nil }
            cursor = 0
            reachedEnd = false
        }
        guard !available.isEmpty else { return nil }
        return PageRequest(afterPhoto: cursor, limit: readyQueueLimit - readyQueue.count,
                           kinds: available, dueBy: now.wall)
    }

    /// The page `.fetchPage(request)` read. Leases granted since the last commit are not
    /// in the catalog yet (they are written with a later batch, together with the results
    /// that already came back, or are being written now), so the page is filtered against them.
    mutating func pageFetched(_ page: [PendingJob], for request: PageRequest, at now: ClockReading) {
        if let last = page.last { cursor = last.photoId }
        if page.count < request.limit {
            reachedEnd = true
            // Nothing more is due now: look again shortly, not on every loop turn.
            if page.isEmpty { nextRefill = now.monotonic + 0.25 }
        }
        let unwritten = batch.leases + (committing ?? [])
        guard !unwritten.isEmpty else { return readyQueue.append(contentsOf: page) }
        var out: Set<TaskKey> = []
        for lease in unwritten { for kind in lease.kinds { out.insert(TaskKey(photoId: lease.photoId, kind: kind)) } }
        readyQueue.append(contentsOf: page.filter { job in !job.kinds.contains { out.contains(TaskKey(photoId: job.photoId, kind: $0)) } })
    }

    private struct TaskKey: Hashable {
        var photoId: Int64
        var kind: Kind
    }

    /// Hands queued jobs to the workers with free credit, the one that has waited longest
    /// for work first (`CreditQueue`), so that none waits behind the others (a worker
    /// takes the part of a job it offers). A worker's jobs of one turn go out together
    /// (JOBS, PROTOCOL.md "Batches"): a worker with many free slots and tiny work gets them
    /// in one message. Then heartbeats the workers it has sent nothing for an interval.
    /// Each job's lease is granted here, at `now`.
    mutating func dispatch(at now: ClockReading) -> [SchedulerAction] {
        var actions: [SchedulerAction] = []
        // Served, and with credit left (the queue ran dry, or it offers nothing queued):
        // first in line again next time.
        var waiting: [Data] = []
        let language = configuration.parameters.ocrLanguage
        while !readyQueue.isEmpty, let peer = withCredit.popFirst() {
            guard let session = sessions[peer] else { continue }
            var orders: [JobOrder] = []
            while session.credit > 0 {
                // What this worker does not offer stays queued for another.
                guard let job = readyQueue.takeShare(within: 256, share: { session.share(of: $0, ocrLanguage: language) })
                else { break }
                orders.append(grant(job, to: session, at: now))
            }
            if !orders.isEmpty { actions.append(.sendJobs(orders, to: peer)) }
            if session.credit > 0 { waiting.append(peer) }
        }
        withCredit.prepend(waiting)
        for session in heartbeats.due(at: now.monotonic) where sessions[session.routingId] === session {
            if now.monotonic - session.lastSent >= session.heartbeatInterval {
                actions.append(.send(.heartbeat, to: session.routingId))
                session.lastSent = now.monotonic
            }
            heartbeats.schedule(session, at: session.lastSent + session.heartbeatInterval)
        }
        return actions
    }

    /// Keeps `withCredit` in step with a session whose credit changed (outside dispatch):
    /// one that gains credit joins the back of the line.
    mutating func creditChanged(_ session: WorkerSession) {
        if session.credit > 0 { withCredit.append(session.routingId) } else { withCredit.remove(session.routingId) }
    }

    /// The lease of `job` for `session`, and the order to send it. The lease runs for the
    /// job's longest deadline plus the worker's grace; the JOB carries the deadlines alone.
    private mutating func grant(_ job: PendingJob, to session: WorkerSession, at now: ClockReading) -> JobOrder {
        let (jobID, token) = tokens.next()
        let deadline: Double = (job.kinds.map(configuration.deadline(for:)).max() ?? 60) + session.leaseGrace
        let lease = Lease(photoId: job.photoId, kinds: job.kinds, token: token, worker: session.workerId,
                          leasedAt: now.wall, expiresAt: now.wall + deadline, pagedUpdatedAt: job.updatedAt)
        batch.leases.append(lease)
        inFlight[token] = InFlight(lease: lease, jobID: jobID, routingId: session.routingId,
                                   grantedAt: now.monotonic, deadline: now.monotonic + deadline)
        tokenForJob[jobID] = token
        session.holding.insert(token)
        session.lastSent = now.monotonic
        changedWorkers.insert(session.routingId)
        return JobOrder(jobID: jobID, token: token, job: job, fileInBlobs: !session.reads(job.path))
    }

    /// A job `dispatch` granted never left: its credit comes back. A job the socket
    /// refused goes back to the front of the queue, unleased (PROTOCOL.md: "A JOB whose send
    /// fails was never sent"); a file the coordinator could not read is settled like a FAIL.
    mutating func jobNotSent(_ order: JobOrder, because reason: NotSent, at now: ClockReading) {
        guard let flight = inFlight.removeValue(forKey: order.token) else { return }
        tokenForJob[order.jobID] = nil
        if let session = flight.routingId.flatMap({ sessions[$0] }) {
            session.holding.remove(order.token)
            creditChanged(session)
        }
        switch reason {
        case .unreachable:
            batch.leases.removeAll { $0.token == order.token }
            readyQueue.putBack(order.job)
        case .fileUnreadable(let errorClass, let text):
            logger.warning("cannot send a file to a worker", metadata: [
                "photo.path": "\(order.job.path)", "worker.id": "\(flight.lease.worker)", "job.id": "\(order.jobID)",
                "error.class": "\(errorClass)", "error": "\(text)",
            ])
            // An attempt, with the cause: the lease is written with its failure.
            let outcome = TaskOutcome.failure(errorClass: errorClass, message: text, retryable: true)
            for result in Self.failures(outcome, lease: flight.lease) {
                batch.results.append(ReportedResult(result: result, worker: flight.lease.worker, startedAt: flight.lease.leasedAt, endedAt: now.wall))
            }
        }
    }
}
