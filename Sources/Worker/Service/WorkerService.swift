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
import PhotoProcessing
import PhotomillCore
import SwiftProtobuf
import Synchronization
import ZeroMQ

/// A photomill worker: the thin loop around the `WorkerStateMachine`. It owns one DEALER
/// connection to the coordinator (on the thread that calls `run()`) and `slots` threads of
/// its own that process photos; the slots wake it through an inproc socket when a result
/// is ready. PROTOCOL.md is what goes over the connection.
public final class WorkerService: Sendable {
    public let configuration: WorkerConfiguration
    private let logger: Logger
    private let stopping = Mutex(false)
    /// What the slots finished, for the socket thread.
    private let finished = Mailbox<WorkerStateMachine.Finished>()
    private let wakeEndpoint = "inproc://photomill-worker-wake-\(UUID().uuidString)"

    public init(configuration: WorkerConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Asks `serve()` to finish the jobs in hand, deliver their results and return.
    public func stop() {
        stopping.withLock { $0 = true }
    }

    private var isStopping: Bool { stopping.withLock { $0 } }

    /// Runs until `stop()`; the calling thread becomes the socket's owner. As a `Service`,
    /// `run()` does this on a thread of its own.
    public func serve() throws(ZMQError) {
        let context = try ZMQContext()
        let wake = try ZMQSocket(context: context, type: .pull)
        try wake.bind(wakeEndpoint)
        let slots = startSlots(context: context)
        defer {
            slots.shutdown()
            wake.close()
        }
        var loop = Loop(
            service: self,
            context: context,
            slots: slots,
            machine: WorkerStateMachine(configuration: configuration.stateMachine, logger: logger),
            diagnosis: ConnectionDiagnosis(endpoint: configuration.endpoint, curve: configuration.security != nil)
        )
        defer { loop.closeSocket() }
        try loop.perform(loop.machine.start(at: .now()))
        var stopSeen = false
        while !loop.finished {
            var poller = Poller()
            let wakeIndex = poller.register(wake)
            let socketIndex = loop.socket.map { poller.register($0) }
            let monitorIndex = loop.monitor.map { poller.register($0.socket) }
            for item in try poller.poll(timeoutMilliseconds: loop.machine.pollTimeoutMilliseconds) {
                if item.index == wakeIndex {
                    while (try? wake.receive(dontWait: true)) ?? nil != nil {}
                    #if PHOTOMILL_FAULT_INJECTION
                    let finished = FaultInjection.holdingResults(self.finished.takeAll())
                    #else
                    let finished = self.finished.takeAll()
                    #endif
                    try loop.perform(loop.machine.jobsFinished(finished, at: .now()))
                }
                if item.index == monitorIndex { loop.diagnose() }
                if item.index == socketIndex, let socket = loop.socket {
                    // Until a DISCONNECT closes this connection.
                    while loop.socket === socket, let frames = try socket.receive(dontWait: true) {
                        try loop.receive(frames)
                    }
                }
            }
            if !stopSeen && isStopping {
                stopSeen = true
                try loop.perform(loop.machine.stop(at: .now()))
            }
            try loop.perform(loop.machine.tick(at: .now()))
        }
    }

    /// What one run of the loop holds: the state machine, the current socket, and the
    /// means to carry out the machine's actions.
    private struct Loop {
        let service: WorkerService
        let context: ZMQContext
        let slots: BlockingExecutor<Slot>
        var machine: WorkerStateMachine
        var diagnosis: ConnectionDiagnosis
        var socket: ZMQSocket?
        /// The socket's monitor: why a connection fails (`ConnectionDiagnosis`).
        var monitor: SocketMonitor?
        var finished = false

        var configuration: WorkerConfiguration { service.configuration }

        mutating func perform(_ actions: [WorkerStateMachine.Action]) throws(ZMQError) {
            for action in actions {
                switch action {
                case .connect(let routingId):
                    closeSocket()
                    socket = try connect(routingId: routingId)
                case .send(let outbound):
                    send(outbound)
                case .close(let reason, let wait):
                    diagnose()
                    closeSocket()
                    let metadata: Logger.Metadata = [
                        "coordinator": "\(configuration.endpoint)", "retry.seconds": "\(wait)",
                    ]
                    switch reason {
                    // The cause was said once already; "silent" would hide it on every retry.
                    case .silent where diagnosis.reported != nil:
                        service.logger.debug("still cannot reach the coordinator: reconnecting", metadata: metadata)
                    case .silent: service.logger.warning("coordinator is silent: reconnecting", metadata: metadata)
                    case .disconnected: service.logger.warning("coordinator asked us to reconnect", metadata: metadata)
                    }
                case .closeQueue:
                    slots.close()
                case .finish:
                    finished = true
                }
            }
        }

        /// The monitored socket first: closing it stops its monitor.
        mutating func closeSocket() {
            socket?.close()
            socket = nil
            monitor?.close()
            monitor = nil
        }

        /// Says each new cause the monitor's events show, once.
        mutating func diagnose() {
            guard let monitor else { return }
            while let event = try? monitor.next() {
                service.logger.trace(
                    "connection event",
                    metadata: ["event": "\(event.kind)", "value": "\(event.value)"]
                )
                let endpoint = configuration.endpoint
                guard let cause = diagnosis.observe(event, peerMechanism: { GreetingProbe.mechanism(of: endpoint) })
                else { continue }
                service.logger.warning(
                    "cannot reach the coordinator: \(diagnosis.message(cause))",
                    metadata: [
                        "coordinator": "\(configuration.endpoint)", "cause": "\(cause)",
                    ]
                )
            }
        }

        private mutating func connect(routingId: Data) throws(ZMQError) -> ZMQSocket {
            let socket = try ZMQSocket(context: context, type: .dealer)
            try socket.set(.routingId, to: routingId)
            try socket.set(.linger, to: 0)
            try socket.set(.maxMessageSize, to: Int64(Limits.default.maxFrameBytes))
            socket.maxFrames = Limits.default.maxFrames
            if let security = configuration.security {
                try socket.set(.curveServerKey, to: security.serverKey)
                try socket.set(.curvePublicKey, to: security.publicKey)
                try socket.set(.curveSecretKey, to: security.secretKey)
            }
            monitor = try socket.monitor()
            try socket.connect(configuration.endpoint)
            return socket
        }

        /// One message from the coordinator, to the machine (and a JOB to the slots).
        mutating func receive(_ frames: [Data]) throws(ZMQError) {
            let now = MonotonicInstant.now()
            let message: MillMessage
            do {
                message = try MillCodec.decode(frames)
            } catch {
                machine.rejected(error.reason, detail: error.description, at: now)
                return
            }
            switch message {
            case .job(let job, let blobs):
                try arrived(job, blobs: blobs, at: now)
            case .jobs(let batch):
                for job in batch.jobs { try arrived(job, blobs: [], at: now) }
            case .ack(let ack):
                machine.acknowledged(ack.committed + ack.discarded, at: now)
            case .disconnect(let body):
                try perform(machine.disconnectReceived(reason: body.reason, at: now))
            case .heartbeat:
                machine.heartbeatReceived(at: now)
            case .ready, .extend, .result, .fail, .results:
                machine.rejected(.unexpectedCommand, detail: "\(message.command) is not sent to workers", at: now)
            }
        }

        private mutating func arrived(_ job: Photomill_V1_Job, blobs: [Data], at now: MonotonicInstant) throws(ZMQError)
        {
            let arrival = WorkerStateMachine.JobArrival(
                jobID: job.jobID,
                token: job.leaseToken,
                kinds: job.kinds.compactMap(Kind.init),
                deadline: Kind.jobDeadline(job.deadlines.map { Double($0.deadlineMs) / 1000 })
            )
            switch machine.jobArrived(arrival, at: now) {
            case .run: slots.submit { slot in slot.run(job, blobs: blobs) }
            case .refuse(let action): try perform([action])
            }
        }

        private func send(_ outbound: WorkerStateMachine.Outbound) {
            guard let socket else { return }
            let frames: [Data]
            switch outbound {
            case .ready: frames = MillCodec.encode(.ready(configuration.ready))
            case .heartbeat: frames = MillCodec.encode(.heartbeat())
            case .extend(let jobID, let token, let kinds, let extra):
                frames = MillCodec.encode(
                    .extend(
                        .with {
                            $0.jobID = jobID
                            $0.leaseToken = token
                            $0.kinds = kinds.map(Photomill_V1_Kind.init)
                            $0.extraMs = UInt32(extra * 1000)
                        }
                    )
                )
            case .refuse(let jobID, let token):
                frames = MillCodec.encode(
                    .fail(
                        .with {
                            $0.jobID = jobID
                            $0.leaseToken = token
                            $0.errorClass = ErrorClass.shuttingDown.rawValue
                            $0.message = "worker \(configuration.workerId) is stopping"
                            $0.retryable = true
                        }
                    )
                )
            case .results(let finished):
                for (frames, _) in MillCodec.batched(finished.map(\.frames)) { send(frames: frames) }
                return
            case .disconnect(let reason): frames = MillCodec.encode(.disconnect(.with { $0.reason = reason }))
            }
            send(frames: frames)
        }

        private func send(frames: [Data]) {
            guard let socket else { return }
            do {
                _ = try socket.send(frames, dontWait: true)
            } catch {
                service.logger.warning(
                    "send to the coordinator failed",
                    metadata: ["coordinator": "\(configuration.endpoint)", "error": "\(error)"]
                )
            }
        }
    }

    /// The slots: threads that process photos, each with its own `JobRunner` (and so its
    /// own tesseract engine) and its own socket to wake the socket thread with.
    private func startSlots(context: ZMQContext) -> BlockingExecutor<Slot> {
        BlockingExecutor(name: "pm-slot", threads: configuration.slots, stackSize: 8 << 20) {
            [configuration, wakeEndpoint, logger, finished] index in
            Slot(
                index: index,
                runner: JobRunner(configuration: configuration),
                context: context,
                wakeEndpoint: wakeEndpoint,
                finished: finished,
                logger: logger
            )
        }
    }

    /// One slot thread's own: made on it, used by it alone.
    struct Slot {
        let index: Int
        let runner: JobRunner
        let notify: ZMQSocket?
        let finished: Mailbox<WorkerStateMachine.Finished>
        let logger: Logger

        init(
            index: Int,
            runner: JobRunner,
            context: ZMQContext,
            wakeEndpoint: String,
            finished: Mailbox<WorkerStateMachine.Finished>,
            logger: Logger
        ) {
            self.index = index
            self.runner = runner
            notify = try? ZMQSocket(context: context, type: .push)
            try? notify?.connect(wakeEndpoint)
            self.finished = finished
            self.logger = logger
        }

        /// Processes one job, hands its result to the socket thread and wakes it.
        func run(_ job: Photomill_V1_Job, blobs: [Data]) {
            let started = MonotonicInstant.now()
            let (result, blobs) = runner.run(job, blobs: blobs)
            logger.debug(
                "job processed",
                metadata: [
                    "job.id": "\(job.jobID)", "photo.path": "\(job.path)",
                    "kind": "\(job.kinds.compactMap(Kind.init).map(\.rawValue).joined(separator: ","))",
                    "failed":
                        "\(result.results.filter { if case .failure = $0.outcome { true } else { false } }.count)",
                    "seconds": "\(String(format: "%.3f", MonotonicInstant.now() - started))",
                ]
            )
            finished.post(.init(jobID: job.jobID, frames: MillCodec.encode(.result(result, blobs: blobs))))
            do {
                _ = try notify?.send([Data([1])], dontWait: false)
            } catch {
                logger.error(
                    "a slot cannot wake the socket thread",
                    metadata: ["slot": "\(index)", "error": "\(error)"]
                )
            }
        }
    }
}

extension WorkerConfiguration {
    var stateMachine: WorkerStateMachine.Configuration {
        var machine = WorkerStateMachine.Configuration(workerId: workerId)
        machine.heartbeatInterval = heartbeatInterval
        machine.liveness = liveness
        machine.reconnectInitial = reconnectInitial
        machine.reconnectMax = reconnectMax
        return machine
    }

    /// READY: slots and capabilities (PROTOCOL.md, READY).
    var ready: Photomill_V1_Ready {
        .with {
            $0.workerID = workerId
            $0.host = host
            $0.softwareVersion = softwareVersion
            $0.protocolVersion = MillWire.protocolVersion
            $0.slots = UInt32(min(slots + prefetch, Int(FieldBounds.slots.upperBound)))
            $0.kinds = kinds.sorted().map(Photomill_V1_Kind.init)
            $0.ocrLanguages = kinds.contains(where: \.needsLanguage) ? ocrLanguages : []
            $0.pathRoots = advertisedRoots
            $0.heartbeatIntervalMs = UInt32(heartbeatInterval * 1000)
            $0.prefetch = UInt32(prefetch)
        }
    }
}
