import Catalog
import Foundation
import Logging
import MillProtocol
import PhotomillCore

// Batches for the committer, ACKs after them, and the hand-back at shutdown.
extension Scheduler {
    /// Hands what came in to the committer, unless it is still writing the previous batch:
    /// then this one goes on growing until the committer is free.
    mutating func flush(at now: ClockReading) -> [SchedulerAction] {
        guard committing == nil else { return [] }
        lastFlush = now.monotonic
        for peer in changedWorkers {
            guard let session = sessions[peer] else { continue }
            batch.workers.append(session.row(state: .connected))
            session.lastRecorded = session.lastSeen
        }
        batch.workers += departed
        batch.violations = violations.takeUncommitted()
        // Leases of jobs still out, younger than `leaseWriteDelay`, wait for their results:
        // a quick job's lease and result are then one write (docs/catalog.md).
        var waiting: [Lease] = []
        batch.leases.removeAll { lease in
            guard let flight = inFlight[lease.token], !flight.expired,
                  now.monotonic - flight.grantedAt < configuration.leaseWriteDelay else { return false }
            waiting.append(lease)
            return true
        }
        guard !batch.isEmpty || !acks.isEmpty else {
            batch.leases = waiting
            return []
        }
        // A lease that waited may have been extended meanwhile.
        batch.leases = batch.leases.map { inFlight[$0.token]?.lease ?? $0 }
        let action = SchedulerAction.commit(batch, acks: acks, wall: now.wall)
        committing = batch.leases
        batch = CommitBatch()
        batch.leases = waiting
        acks.removeAll()
        changedWorkers.removeAll()
        departed.removeAll()
        return [action]
    }

    /// A batch is committed: only now may the workers forget their results. ACKs go out per
    /// worker, at most `FieldBounds.ackEntries` job ids each.
    mutating func committed(_ report: CommitReport, acks: [PendingAck]) -> [SchedulerAction] {
        committing = nil
        var actions: [SchedulerAction] = []
        var byPeer: [Data: (committed: [String], discarded: [String])] = [:]
        var seen: Set<PendingAck> = []
        let most = FieldBounds.ackEntries.upperBound
        for ack in acks where seen.insert(ack).inserted {
            if report.committed.contains(ack.token) { byPeer[ack.routingId, default: ([], [])].committed.append(ack.jobID) }
            else { byPeer[ack.routingId, default: ([], [])].discarded.append(ack.jobID) }
            // A batch that grew while the committer was busy goes out in several ACKs.
            if let full = byPeer[ack.routingId], full.committed.count + full.discarded.count == most {
                actions.append(.send(.ack(committed: full.committed, discarded: full.discarded), to: ack.routingId))
                byPeer[ack.routingId] = nil
            }
        }
        for (peer, ack) in byPeer { actions.append(.send(.ack(committed: ack.committed, discarded: ack.discarded), to: peer)) }
        if !report.touchedPhotos.isEmpty { actions.append(.committedPhotos(Array(report.touchedPhotos))) }
        if report.forgottenResults > 0 {
            logger.info("late results of photos forgotten since their job went out: discarded", metadata: ["results": "\(report.forgottenResults)"])
        }
        return actions
    }

    /// After the drain (`hasJobsOut` false, or its time up): tells every worker to go and
    /// hands back what is still out, without using an attempt. A commit (`flush`) follows.
    mutating func shutdown(at now: ClockReading) -> [SchedulerAction] {
        var actions: [SchedulerAction] = []
        for peer in sessions.keys {
            actions.append(.send(.disconnect(reason: "coordinator stopping"), to: peer))
            actions += drop(peer, reason: .shutdown, message: "coordinator stopped")
        }
        for (_, flight) in inFlight where !flight.expired {
            batch.releases.append(Release(lease: flight.lease, reason: .shutdown, message: "coordinator stopped"))
        }
        inFlight.removeAll()
        return actions
    }
}
