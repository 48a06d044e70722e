import Catalog
import Foundation
import Logging
import PhotomillCore

// Work: paged in from the catalog tier by tier, handed to workers with credit, cheap
// tiers first, heartbeats when idle.
extension Scheduler {
    /// Twice a second the service reads what operators changed (`.readSteering`, then
    /// `steeringRead`, which pages what is needed); otherwise a page for each tier whose
    /// queue runs low.
    mutating func refill(at now: ClockReading) -> [SchedulerAction] {
        if now.monotonic >= nextSteeringCheck {
            nextSteeringCheck = now.monotonic + 0.5
            return [.readSteering]
        }
        return pageRequests(at: now)
    }

    mutating func pageRequests(at now: ClockReading) -> [SchedulerAction] {
        Kind.tiers.compactMap { tier in pageRequest(tier, at: now).map { .fetchPage($0) } }
    }

    private mutating func pageRequest(_ tier: Int, at now: ClockReading) -> PageRequest? {
        let limit = readyQueueLimit
        guard queues[tier].jobs.count < limit / 4, now.monotonic >= queues[tier].nextRefill else { return nil }
        if queues[tier].reachedEnd {
            guard queues[tier].jobs.isEmpty else { return nil }
            queues[tier].position = .start
            queues[tier].reachedEnd = false
        }
        let kinds = available.filter { $0.tier == tier }
        guard !kinds.isEmpty else { return nil }
        return PageRequest(tier: tier, after: queues[tier].position, limit: limit - queues[tier].jobs.count,
                           kinds: kinds, dueBy: now.wall)
    }

    /// The page `.fetchPage(request)` read. Leases granted since the last commit are not
    /// in the catalog yet (they are written with a later batch, together with the results
    /// that already came back, or are being written now), so the page is filtered against them.
    mutating func pageFetched(_ page: [PendingJob], for request: PageRequest, at now: ClockReading) {
        let tier = request.tier
        if let last = page.last { queues[tier].position = last.position }
        if page.count < request.limit {
            queues[tier].reachedEnd = true
            // Nothing more is due now: look again shortly, not on every loop turn.
            if page.isEmpty { queues[tier].nextRefill = now.monotonic + 0.25 }
        }
        let unwritten = batch.leases + (committing ?? [])
        guard !unwritten.isEmpty else { return queues[tier].jobs.append(contentsOf: page) }
        var out: Set<TaskKey> = []
        for lease in unwritten { for kind in lease.kinds { out.insert(TaskKey(photoId: lease.photoId, kind: kind)) } }
        queues[tier].jobs.append(contentsOf: page.filter { job in !job.kinds.contains { out.contains(TaskKey(photoId: job.photoId, kind: $0)) } })
    }

    private struct TaskKey: Hashable {
        var photoId: Int64
        var kind: Kind
    }

    /// The kinds worth paging changed (workers came or went, an operator paused or resumed):
    /// a tier that gained a kind is paged again from the front (work skipped so far may be
    /// takeable now); kinds no longer wanted leave the queues.
    mutating func setAvailable(_ kinds: Set<Kind>) {
        let gained = kinds.subtracting(available), lost = available.subtracting(kinds)
        for tier in Set(gained.map(\.tier)) { queues[tier].restart() }
        if !lost.isEmpty {
            for tier in Set(lost.map(\.tier)) {
                queues[tier].jobs.update { job in
                    var job = job
                    job.keepKinds { kinds.contains($0) }
                    return job.kinds.isEmpty ? nil : job
                }
            }
        }
        available = kinds
    }

    /// Hands queued jobs to the workers with free credit, the one that has waited longest
    /// for work first (`CreditQueue`), so that none waits behind the others; each takes
    /// the most urgent job it can take part of (`takeNext`). A worker's jobs of one turn go
    /// out together (JOBS, PROTOCOL.md "Batches"): a worker with many free slots and tiny
    /// work gets them in one message. Then heartbeats the workers it has sent nothing for
    /// an interval. Each job's lease is granted here, at `now`.
    mutating func dispatch(at now: ClockReading) -> [SchedulerAction] {
        var actions: [SchedulerAction] = []
        // Served, and with credit left (the queues ran dry, or it offers nothing queued):
        // first in line again next time.
        var waiting: [Data] = []
        while queues.jobCount > 0, let peer = withCredit.popFirst() {
            guard let session = sessions[peer] else { continue }
            var orders: [JobOrder] = []
            while session.credit > 0, let job = takeNext(for: session) {
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

    /// The most urgent job `session` can take part of: a prioritized folder's first (the
    /// latest prioritization first), then by tier, cheap kinds first. Within a tier the
    /// queue is in rank order already. What this worker does not offer stays queued.
    private mutating func takeNext(for session: WorkerSession) -> PendingJob? {
        let language = configuration.parameters.ocrLanguage
        var best: (tier: Int, index: Int, kinds: [Kind], urgency: Int64)?
        for tier in Kind.tiers {
            guard let (index, kinds) = queues[tier].jobs.firstShare(within: 256, share: { session.share(of: $0, ocrLanguage: language) })
            else { continue }
            let rank = queues[tier].jobs[index].rank
            let urgency = TaskRank.isPrioritized(rank) ? rank : 0
            if best == nil || urgency < best!.urgency { best = (tier, index, kinds, urgency) }
        }
        guard let best else { return nil }
        return queues[best.tier].jobs.take(at: best.index, kinds: best.kinds)
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
        let deadline: Double = configuration.deadline(for: job.kinds) + session.leaseGrace
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
            queues[order.job.tier].jobs.putBack(order.job)
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
