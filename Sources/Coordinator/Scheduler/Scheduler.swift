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

/// The coordinator's protocol logic, without sockets, threads, clocks or a logger: it takes
/// events (a worker's READY and later messages, a page of due work, a commit done, a tick,
/// what operators changed, shutdown), each with the time, and returns the actions its
/// service carries out (send a JOB or an ACK, commit a batch, read a page, write a log
/// line). protocols/PROTOCOL.md is the normative description; docs/architecture.md draws
/// where it sits and its table of events and actions. Tested alone, event by event, with a
/// manual clock (Tests/CoordinatorTests).
///
/// Its state is held by three sub-machines, each tested on its own, and the batch that
/// grows until the next commit:
/// - `leases` (`LeaseTable`): every lease, from grant to result, release or hand-back, and
///   its way into the catalog; exactly-once rests on it;
/// - `workers` (`WorkerRegistry`): the connected workers, their credit and heartbeats;
/// - `queues` (`TierQueues`): the work paged in, one ready queue per tier.
///
/// Time comes in as a `ClockReading`: every deadline (leases, liveness, heartbeats, commit
/// and refill intervals) is measured on its monotonic part, so a step of the wall clock
/// moves none of them; the wall part only goes into what is written to the catalog.
struct Scheduler {
    let configuration: CoordinatorConfiguration
    var state = State.running

    enum State: Equatable {
        /// Serving workers.
        case running
        /// `shutdown` told every worker to go and handed back what was out: nothing more is
        /// granted.
        case stopped
    }

    var leases: LeaseTable
    var workers = WorkerRegistry()
    var queues = TierQueues()

    /// Dropped messages by reason (`violationCounts`).
    var violations = ProtocolViolations()
    /// Leases expired and workers lost since the start (for `/metrics`).
    var counts = SchedulerCounts()
    /// Why each kind waits, as last found (nil before `start`).
    var waits: [Kind: WaitReason]?
    /// `waits`, when the catalog has not heard of them yet: written with the next commit.
    var unwrittenWaits: [Kind: WaitReason]?
    /// The shortest heartbeat interval of the connected workers (the configured one when
    /// none is): the loop must look that often.
    var shortestInterval: Double
    /// Kinds an operator paused: neither paged nor leased until resumed.
    var paused: Set<Kind> = []
    var requeueMark: Int64 = 0
    let startedAt: MonotonicInstant
    var nextLeaseCheck = MonotonicInstant.distantPast
    var nextSteeringCheck = MonotonicInstant.distantPast

    // The batch that grows until the next commit (Scheduler+Commits.swift); its leases'
    // part is the LeaseTable's.
    var results: [ReportedResult] = []
    var acks: [PendingAck] = []
    var lastFlush = MonotonicInstant.distantPast
    /// The committer is writing the previous batch: this one grows until it is done.
    var committerBusy = false

    /// `run`: the id in this run's job ids and tokens, fixed by tests; random otherwise.
    init(configuration: CoordinatorConfiguration, at now: ClockReading, run: String? = nil) {
        self.configuration = configuration
        startedAt = now.monotonic
        leases = LeaseTable(run: run)
        shortestInterval = configuration.heartbeatInterval
    }

    /// The first actions: why each kind waits (no worker is connected yet).
    mutating func start() -> [SchedulerAction] {
        capabilitiesChanged()
    }

    /// Nothing queued, out or uncommitted: a run may end once the catalog agrees.
    var isIdle: Bool { queues.jobCount == 0 && leases.isEmpty && results.isEmpty }

    /// Jobs out at workers (or inherited from a previous run).
    var hasJobsOut: Bool { !leases.isEmpty }

    /// Results, leases, EXTENDs or releases wait for the next commit.
    var hasUncommitted: Bool { !results.isEmpty || leases.hasWrites }

    /// How long the service may wait in `zmq_poll` before the next `tick`: a quarter of the
    /// shortest heartbeat interval, or less when a batch waits for its commit interval.
    func pollTimeout(at now: ClockReading) -> Int {
        var timeout: Double = Swift.min(configuration.heartbeatInterval, shortestInterval) / 4
        if hasUncommitted && !committerBusy {
            let untilFlush: Double = (lastFlush + configuration.commitInterval) - now.monotonic
            timeout = Swift.min(timeout, Swift.max(0.0, untilFlush))
        }
        return Swift.max(1, Int(timeout * 1000))
    }

    /// The timers: a batch due for its commit, silent workers and expired leases (ten looks
    /// a second), what operators changed (twice a second) and a page of work when a tier's
    /// queue runs low. `dispatch` follows.
    mutating func tick(at now: ClockReading) -> [SchedulerAction] {
        var actions: [SchedulerAction] = []
        let sinceFlush: Double = now.monotonic - lastFlush
        if results.count >= configuration.commitBatchSize || sinceFlush >= configuration.commitInterval {
            actions += flush(at: now)
        }
        if now.monotonic >= nextLeaseCheck {
            // Liveness and deadlines are whole seconds: ten looks a second suffice, where a
            // look per loop turn would walk every lease per message.
            nextLeaseCheck = now.monotonic + 0.1
            actions += checkLiveness(at: now)
            actions += checkLeases(at: now)
        }
        actions += refill(at: now)
        return actions
    }

    /// Jobs of a tier paged in at most: the configured limit, or as many as the connected workers
    /// have slots, so that a thousand workers of four slots each are not left waiting on a
    /// queue of 1,024 (a job waits in it as a few dozen bytes and a path).
    var readyQueueLimit: Int { Swift.max(configuration.readyQueueLimit, workers.totalSlots) }

    /// What was dropped as malformed or unexpected, by reason, since the start.
    var violationCounts: [ProtocolViolation.Reason: Int] { violations.counts }

    /// The jobs `session`'s worker may still take.
    func credit(of session: WorkerSession) -> Int { session.slots - leases.heldCount(by: session.routingId) }
}

/// What the scheduler counts of its own events since it started (`CoordinatorMetrics`).
struct SchedulerCounts {
    var leaseExpirations = 0
    var workersLost = 0
}
