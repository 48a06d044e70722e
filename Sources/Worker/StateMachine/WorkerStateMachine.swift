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
import Logging
import MillProtocol
import PhotomillCore

/// The worker's protocol side, without sockets, threads or clocks: a connection's life
/// (READY, heartbeats, the coordinator's liveness, reconnects with backoff), the jobs in
/// hand (EXTEND as deadlines near) and the results not yet ACKed (re-sent on every new
/// connection, and when their ACK is long overdue). Events come with the monotonic time;
/// the actions it returns are carried out by `WorkerService`. PROTOCOL.md, "The worker".
struct WorkerStateMachine {
    struct Configuration: Sendable {
        var workerId: String
        var heartbeatInterval: Double = 1
        /// Heartbeat intervals of silence after which the coordinator counts as gone.
        var liveness = 3
        var reconnectInitial: Double = 1
        var reconnectMax: Double = 32
        /// How long a stopping worker waits for its jobs to finish and their ACKs.
        var drainLimit: Double = 30
        /// A result whose ACK is this many heartbeat intervals late goes out again.
        var overdueIntervals: Double = 10
    }

    enum State: Equatable {
        /// No connection yet.
        case initial
        /// A connection is open; READY went out.
        case connected(attempt: Int)
        /// The connection was closed; the next one opens at `until`.
        case backoff(attempt: Int, until: MonotonicInstant)
        /// Stopping: the jobs in hand finish and their results go out, until `deadline`.
        case draining(deadline: MonotonicInstant)
        case finished
    }

    /// Why a connection ended.
    enum EndOfConnection: String, Sendable {
        case silent = "is silent"
        case disconnected = "asked us to reconnect"
    }

    /// A JOB as the machine tracks it: for EXTEND and the refusal of a draining worker.
    struct JobArrival: Sendable, Hashable {
        var jobID: String
        var token: String
        var kinds: [Kind]
        /// The longest of its kinds' deadlines, in seconds.
        var deadline: Double
    }

    /// What goes to the coordinator; the service encodes it.
    enum Outbound: Sendable, Equatable {
        case ready
        case heartbeat
        case extend(jobID: String, token: String, kinds: [Kind], extraSeconds: Double)
        /// FAIL `shutting-down`: a draining worker hands a new JOB back.
        case refuse(jobID: String, token: String)
        /// RESULTs and FAILs the slots built, in order: one message, or as few RESULTS as
        /// the limits allow (PROTOCOL.md, "Batches").
        case results([Finished])
        case disconnect(reason: String)
    }

    enum Action: Sendable, Equatable {
        /// Close the current socket, if any, and open a new one with this routing id.
        case connect(routingId: Data)
        case send(Outbound)
        /// Close the socket: the coordinator is gone or asked us to reconnect.
        case close(EndOfConnection, retryIn: Double)
        /// No more jobs for the slots: they finish the ones queued.
        case closeQueue
        /// The service's loop returns.
        case finish
    }

    /// A job's RESULT or FAIL, encoded by the slot that ran it.
    struct Finished: Sendable, Equatable {
        var jobID: String
        var frames: [Data]
    }

    enum JobDecision: Equatable {
        case run
        /// Draining: the JOB is handed back.
        case refuse(Action)
    }

    let configuration: Configuration
    let logger: Logger
    private(set) var state = State.initial
    private var backoff: Double
    private var lastHeard = MonotonicInstant.distantPast
    private var lastSent = MonotonicInstant.distantPast

    /// A job a slot is working on, for EXTEND.
    private struct Running {
        let token: String
        let kinds: [Kind]
        let deadline: Double
        var since: MonotonicInstant
    }
    private var running: [String: Running] = [:]

    /// A sent RESULT the coordinator has not acknowledged yet.
    private struct Unacknowledged {
        let frames: [Data]
        var sentAt: MonotonicInstant
    }
    private var unacknowledged: [String: Unacknowledged] = [:]
    private var unacknowledgedOrder: [String] = []

    /// Messages from the coordinator dropped as violations (the coordinator is its one peer).
    private var dropped = ProtocolViolations()
    var violations: [ProtocolViolation.Reason: Int] { dropped.counts }

    init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        backoff = configuration.reconnectInitial
    }

    var unacknowledgedCount: Int { unacknowledged.count }

    /// How long the service may wait in `zmq_poll`: short enough that stop() and the
    /// timers are noticed quickly.
    var pollTimeoutMilliseconds: Int {
        if case .connected = state { return min(100, Int(configuration.heartbeatInterval * 1000 / 4)) }
        return 100
    }

    /// The first connection.
    mutating func start(at now: MonotonicInstant) -> [Action] {
        guard state == .initial else { return [] }
        return connect(attempt: 1, at: now)
    }

    /// A new socket with a new routing id (the coordinator's ROUTER would refuse a second
    /// connection under an id it still holds), READY, then everything un-ACKed again, in order.
    private mutating func connect(attempt: Int, at now: MonotonicInstant) -> [Action] {
        state = .connected(attempt: attempt)
        lastHeard = now
        lastSent = now
        var actions: [Action] = [.connect(routingId: Data("\(configuration.workerId)#\(attempt)".utf8)), .send(.ready)]
        let again = resend(unacknowledgedOrder, at: now)
        if !again.isEmpty { actions.append(.send(.results(again))) }
        return actions
    }

    /// A message from the coordinator (any message is a sign of life).
    private mutating func heard(at now: MonotonicInstant) {
        lastHeard = now
        backoff = configuration.reconnectInitial
    }

    mutating func jobArrived(_ job: JobArrival, at now: MonotonicInstant) -> JobDecision {
        heard(at: now)
        if case .draining = state {
            // A draining worker takes no new work (PROTOCOL.md, "Shutdown").
            return .refuse(.send(.refuse(jobID: job.jobID, token: job.token)))
        }
        running[job.jobID] = Running(token: job.token, kinds: job.kinds, deadline: job.deadline, since: now)
        return .run
    }

    /// ACK: the coordinator has these jobs' outcomes; they are forgotten.
    mutating func acknowledged(_ jobIDs: [String], at now: MonotonicInstant) {
        heard(at: now)
        for id in jobIDs { unacknowledged[id] = nil }
        unacknowledgedOrder.removeAll { unacknowledged[$0] == nil }
    }

    mutating func heartbeatReceived(at now: MonotonicInstant) {
        heard(at: now)
    }

    /// DISCONNECT from the coordinator: reconnect after the backoff (a draining worker
    /// goes on waiting for its ACKs).
    mutating func disconnectReceived(reason: String, at now: MonotonicInstant) -> [Action] {
        heard(at: now)
        logger.info("the coordinator says to go", metadata: ["reason": "\(reason)"])
        guard case .connected = state else { return [] }
        return close(.disconnected, at: now)
    }

    /// A message that is malformed, or not one a worker is sent: dropped and counted,
    /// logged at most once a minute.
    mutating func rejected(_ reason: ProtocolViolation.Reason, detail: String, at now: MonotonicInstant) {
        heard(at: now)
        guard dropped.record(reason, from: Data(), at: now) else { return }
        logger.warning(
            "dropped a malformed message from the coordinator",
            metadata: ["reason": "\(reason)", "detail": "\(detail)"]
        )
    }

    /// Slots finished jobs (all those done since the loop last looked): their RESULTs and
    /// FAILs go out now, together, if connected, else with the next connection; either way
    /// each is kept until ACKed. Nothing waits for more results to come: a batch is what
    /// finished while the loop was busy, so it costs no latency and grows with the load.
    mutating func jobsFinished(_ finished: [Finished], at now: MonotonicInstant) -> [Action] {
        guard !finished.isEmpty else { return [] }
        for job in finished {
            running[job.jobID] = nil
            if unacknowledged.updateValue(Unacknowledged(frames: job.frames, sentAt: now), forKey: job.jobID) == nil {
                unacknowledgedOrder.append(job.jobID)
            }
        }
        switch state {
        case .connected, .draining:
            lastSent = now
            return [.send(.results(finished))]
        case .initial, .backoff, .finished:
            return []
        }
    }

    /// The timers: heartbeat when idle, EXTEND for jobs past half their deadline, re-send
    /// results whose ACK is overdue, the coordinator's liveness, the end of a backoff, the
    /// end of a drain.
    mutating func tick(at now: MonotonicInstant) -> [Action] {
        switch state {
        case .initial, .finished:
            return []
        case .backoff(let attempt, let until):
            guard now >= until else { return [] }
            return connect(attempt: attempt + 1, at: now)
        case .connected:
            var actions: [Action] = []
            if now - lastSent >= configuration.heartbeatInterval {
                actions.append(.send(.heartbeat))
                lastSent = now
            }
            actions += extendLongJobs(at: now)
            actions += resendOverdue(at: now)
            if now - lastHeard > Double(configuration.liveness) * configuration.heartbeatInterval {
                actions += close(.silent, at: now)
            }
            return actions
        case .draining(let deadline):
            guard now >= deadline || (running.isEmpty && unacknowledged.isEmpty) else { return [] }
            if !unacknowledged.isEmpty {
                logger.warning(
                    "stopping with results not acknowledged; the coordinator will lease them again",
                    metadata: ["results": "\(unacknowledged.count)"]
                )
            }
            state = .finished
            return [.send(.disconnect(reason: DisconnectReason(.workerStopping).description)), .finish]
        }
    }

    /// Stop: a connected worker drains (its jobs finish, their results go out, it waits
    /// for the ACKs, bounded); one between connections stops at once.
    mutating func stop(at now: MonotonicInstant) -> [Action] {
        switch state {
        case .connected:
            state = .draining(deadline: now + configuration.drainLimit)
            return [.closeQueue]
        case .initial, .backoff:
            state = .finished
            return [.closeQueue, .finish]
        case .draining, .finished:
            return []
        }
    }

    private mutating func close(_ reason: EndOfConnection, at now: MonotonicInstant) -> [Action] {
        guard case .connected(let attempt) = state else { return [] }
        let wait = backoff
        state = .backoff(attempt: attempt, until: now + wait)
        backoff = min(backoff * 2, configuration.reconnectMax)
        return [.close(reason, retryIn: wait)]
    }

    /// EXTEND for jobs past half their deadline, so a slow OCR is not taken away.
    private mutating func extendLongJobs(at now: MonotonicInstant) -> [Action] {
        var actions: [Action] = []
        for (id, job) in running where now - job.since > job.deadline / 2 {
            actions.append(.send(.extend(jobID: id, token: job.token, kinds: job.kinds, extraSeconds: job.deadline)))
            running[id]?.since = now
        }
        if !actions.isEmpty { lastSent = now }
        return actions
    }

    /// Results whose ACK is long overdue (lost in a full queue) go out again, together; the
    /// coordinator acknowledges duplicates as discarded.
    private mutating func resendOverdue(at now: MonotonicInstant) -> [Action] {
        let overdue = configuration.overdueIntervals * configuration.heartbeatInterval
        let again = resend(
            unacknowledgedOrder.filter { unacknowledged[$0].map { now - $0.sentAt > overdue } ?? false },
            at: now
        )
        return again.isEmpty ? [] : [.send(.results(again))]
    }

    /// The un-ACKed results of `ids`, in that order, marked sent at `now`.
    private mutating func resend(_ ids: [String], at now: MonotonicInstant) -> [Finished] {
        ids.compactMap { id in
            guard var entry = unacknowledged[id] else { return nil }
            entry.sentAt = now
            unacknowledged[id] = entry
            return Finished(jobID: id, frames: entry.frames)
        }
    }
}
