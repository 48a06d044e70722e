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

// Batches for the committer, ACKs after them, and the hand-back at shutdown.
extension Scheduler {
    /// Hands what came in to the committer, unless it is still writing the previous batch:
    /// then this one goes on growing until the committer is free.
    mutating func flush(at now: ClockReading) -> [SchedulerAction] {
        guard !committerBusy else { return [] }
        lastFlush = now.monotonic
        var batch = CommitBatch()
        batch.results = results
        batch.workers = workers.takeRows(inFlight: leases.heldCount(by:))
        batch.violations = Dictionary(
            uniqueKeysWithValues: violations.takeUncommitted().map { ($0.key.rawValue, $0.value) }
        )
        batch.waits = unwrittenWaits
        // Leases of jobs still out, younger than `leaseWriteDelay`, wait for their results:
        // a quick job's lease and result are then one write (docs/catalog.md).
        guard
            let writes = leases.takeForCommit(
                at: now.monotonic,
                keepingBack: configuration.leaseWriteDelay,
                evenIfEmpty: !batch.isEmpty || !acks.isEmpty
            )
        else { return [] }
        batch.leases = writes.leases
        batch.extensions = writes.extensions
        batch.releases = writes.releases
        let action = SchedulerAction.commit(batch, acks: acks, wall: now.wall)
        committerBusy = true
        unwrittenWaits = nil
        results.removeAll()
        acks.removeAll()
        return [action]
    }

    /// A batch is committed: only now may the workers forget their results. ACKs go out per
    /// worker, at most `FieldBounds.ackEntries` job ids each.
    mutating func committed(_ report: CommitReport, acks: [PendingAck]) -> [SchedulerAction] {
        committerBusy = false
        leases.committed()
        var actions: [SchedulerAction] = []
        var byPeer: [Data: (committed: [String], discarded: [String])] = [:]
        var seen: Set<PendingAck> = []
        let most = FieldBounds.ackEntries.upperBound
        for ack in acks where seen.insert(ack).inserted {
            if report.committed.contains(ack.token) {
                byPeer[ack.routingId, default: ([], [])].committed.append(ack.jobID)
            } else {
                byPeer[ack.routingId, default: ([], [])].discarded.append(ack.jobID)
            }
            // A batch that grew while the committer was busy goes out in several ACKs.
            if let full = byPeer[ack.routingId], full.committed.count + full.discarded.count == most {
                actions.append(.send(.ack(committed: full.committed, discarded: full.discarded), to: ack.routingId))
                byPeer[ack.routingId] = nil
            }
        }
        for (peer, ack) in byPeer {
            actions.append(.send(.ack(committed: ack.committed, discarded: ack.discarded), to: peer))
        }
        if !report.touchedPhotos.isEmpty { actions.append(.committedPhotos(Array(report.touchedPhotos))) }
        if report.forgottenResults > 0 {
            actions.append(.log(.forgottenResultsDiscarded(count: report.forgottenResults)))
        }
        return actions
    }

    /// After the drain (`hasJobsOut` false, or its time up): tells every worker to go and
    /// hands back what is still out, without using an attempt. A commit (`flush`) follows.
    mutating func shutdown(at now: ClockReading) -> [SchedulerAction] {
        var actions: [SchedulerAction] = []
        for peer in workers.sessions.keys {
            actions.append(.send(.disconnect(DisconnectReason(.coordinatorStopping)), to: peer))
            actions += drop(peer, reason: .shutdown, message: "coordinator stopped")
        }
        leases.handBackAll(message: "coordinator stopped")
        state = .stopped
        return actions
    }
}
