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

import Catalog
import Foundation
import Logging
import MillProtocol
import PhotomillCore
import Synchronization
import ZeroMQ

/// The coordinator's service: the thin loop around the `Scheduler`. It owns the ROUTER
/// socket, the committer and scanner threads and the clocks, and runs on one thread (the
/// caller of `run()`), which polls the socket with the scheduler's nearest timer as its
/// timeout. Each loop turn hands the scheduler what came in, ticks it, has it dispatch,
/// and carries out what it asks (`perform`). protocols/PROTOCOL.md is the normative
/// description of what goes over the socket.
public final class CoordinatorService: Sendable {
    public let configuration: CoordinatorConfiguration
    private let catalog: Catalog
    private let logger: Logger
    /// What `/metrics` shows of the loop, the committer and the transfers.
    let metrics: CoordinatorMetrics?
    private let hooks: Hooks
    /// Asked to stop; how the run ended.
    private let shared = Mutex<(stopping: Bool, outcome: Outcome?)>((false, nil))

    /// What the coordinator tells the parts around it, each called on the coordinator's
    /// thread; given at construction.
    public struct Hooks: Sendable {
        /// The endpoints, once the ROUTER is bound.
        public var bound: @Sendable ([String]) -> Void
        /// Once, as soon as there is work: tasks left unfinished in the catalog, or the scan
        /// queued some. `photomill run` starts its workers here, so that a re-run over an
        /// unchanged tree starts none.
        public var workPending: @Sendable () -> Void
        /// The photo ids whose results were just committed (the exports follow them).
        public var committed: @Sendable ([Int64]) -> Void
        /// After scan work that changed what the exports show (`Scanner.onLibraryChanged`,
        /// on the scanner's thread): the photos that moved.
        public var libraryChanged: @Sendable ([Int64]) -> Void

        public init(
            bound: @escaping @Sendable ([String]) -> Void = { _ in },
            workPending: @escaping @Sendable () -> Void = {},
            committed: @escaping @Sendable ([Int64]) -> Void = { _ in },
            libraryChanged: @escaping @Sendable ([Int64]) -> Void = { _ in }
        ) {
            self.bound = bound
            self.workPending = workPending
            self.committed = committed
            self.libraryChanged = libraryChanged
        }
    }

    public init(
        configuration: CoordinatorConfiguration,
        catalog: Catalog,
        metrics: CoordinatorMetrics? = nil,
        hooks: Hooks = Hooks(),
        logger: Logger
    ) {
        self.configuration = configuration
        self.catalog = catalog
        self.metrics = metrics
        self.hooks = hooks
        self.logger = logger
    }

    public func stop() {
        shared.withLock { $0.stopping = true }
    }

    private var isStopping: Bool { shared.withLock { $0.stopping } }

    /// How the run ended, once `run()` has returned.
    public var outcome: Outcome? { shared.withLock { $0.outcome } }

    /// What a run ended with.
    public struct Outcome: Sendable {
        public var scan: ScanSummary
        public var violations: [ProtocolViolation.Reason: Int]
        /// With `exitWhenDone`: no task was left to do. False when stopped before (a signal).
        public var completed = false
    }

    /// Binds, scans and serves, on the calling thread, until `stop()` (or, with
    /// `exitWhenDone`, until no task is pending or leased). `Hooks.bound` is called once the
    /// sockets are bound. As a `Service`, `run()` does this on a thread of its own.
    public func serve() throws -> Outcome {
        let outcome = try loop()
        shared.withLock { $0.outcome = outcome }
        return outcome
    }

    private func loop() throws -> Outcome {
        let context = try ZMQContext()
        let router = try ZMQSocket(context: context, type: .router)
        defer { router.close() }
        try router.set(.routerMandatory, to: true)
        try router.set(.linger, to: 0)
        try router.set(.maxMessageSize, to: Int64(Limits.default.maxFrameBytes))
        // A connection that says nothing holds a descriptor: drop it once its handshake
        // (milliseconds for a worker, CURVE included) has taken 10 s.
        try router.set(.handshakeInterval, to: 10_000)
        router.maxFrames = Limits.default.maxFrames + 1  // + the routing id frame
        let admission = configuration.security?.admission
        defer { admission?.stop() }
        var admittedGeneration = 0
        if let security = configuration.security {
            // Handler first, options before bind (docs/zeromq.md): no handshake without a verdict.
            try security.admission.start(context: context)
            try router.set(.zapDomain, to: Admission.zapDomain)
            try router.set(.zapEnforceDomain, to: true)
            try router.set(.curveServer, to: true)
            try router.set(.curveSecretKey, to: security.secretKey)
            admittedGeneration = security.admission.generation
        }
        var endpoints: [String] = []
        for endpoint in configuration.bind {
            try router.bind(endpoint)
            endpoints.append(try router.lastEndpoint)
        }
        hooks.bound(endpoints)
        let committer = try Committer(catalog: catalog, retry: configuration.retry, metrics: metrics)
        defer { committer.stop() }
        let readers = try FileReaders(budget: configuration.readBudget)
        defer { readers.stop() }
        var loop = Loop(
            service: self,
            router: router,
            committer: committer,
            readers: readers,
            scheduler: Scheduler(configuration: configuration, at: .now())
        )
        try catalog.forgetWorkers()
        try loop.perform(loop.scheduler.start())
        try loop.perform(loop.scheduler.adopt((try? catalog.outstandingLeases()) ?? [], at: .now()))

        let scanner = try Scanner(catalog: catalog, configuration: configuration, logger: logger)
        scanner.onLibraryChanged = hooks.libraryChanged
        scanner.start()
        defer { scanner.stop() }

        var poller = Poller()
        let socketIndex = poller.register(router)
        let committedIndex = poller.register(fileDescriptor: committer.wake.descriptor)
        let readIndex = poller.register(fileDescriptor: readers.wake.descriptor)
        let scanIndex = poller.register(fileDescriptor: scanner.wake.descriptor)
        var lastDoneCheck = MonotonicInstant.distantPast
        var completed = false
        var announcedWork = false
        func announceWork() {
            guard !announcedWork else { return }
            announcedWork = true
            hooks.workPending()
        }
        if try catalog.unfinishedTaskCount(kinds: configuration.kinds) > 0 { announceWork() }
        while !isStopping {
            for ready in try poller.poll(timeoutMilliseconds: loop.scheduler.pollTimeout(at: .now())) {
                if ready.index == socketIndex { try loop.receiveAll() }
                if ready.index == committedIndex, let done = committer.collect() { try loop.settle(done) }
                if ready.index == readIndex { for read in readers.collect() { try loop.send(read) } }
                if ready.index == scanIndex {
                    scanner.wake.drain()
                    try loop.perform(loop.scheduler.scanQueuedWork(at: .now()))
                }
            }
            if let admission, admission.generation != admittedGeneration {
                admittedGeneration = admission.generation
                try loop.perform(loop.scheduler.allowListChanged(allows: admission.allows, at: .now()))
            }
            try loop.perform(loop.scheduler.tick(at: .now()))
            try loop.perform(loop.scheduler.dispatch(at: .now()))
            metrics?.observe(loop.scheduler, at: .now())
            if let failure = scanner.failure { throw failure }
            if !announcedWork && scanner.summary.queuedTasks > 0 { announceWork() }
            let now = MonotonicInstant.now()
            if configuration.exitWhenDone && scanner.finished && loop.scheduler.isIdle && now - lastDoneCheck > 0.2 {
                lastDoneCheck = now
                try loop.flushAndWait()
                if try catalog.unfinishedTaskCount(kinds: configuration.kinds, paused: loop.scheduler.paused) == 0 {
                    completed = true
                    break
                }
                announceWork()  // e.g. `photomill retry` during the scan
            }
        }
        try loop.shutdown(grace: configuration.exitWhenDone ? 0 : 5)
        return Outcome(scan: scanner.summary, violations: loop.scheduler.violationCounts, completed: completed)
    }

    /// What one run of the loop holds: the scheduler and the means to carry out its actions.
    private struct Loop {
        let service: CoordinatorService
        let router: ZMQSocket
        let committer: Committer
        let readers: FileReaders
        var scheduler: Scheduler
        var jobs: JobEncoder
        /// What the scheduler said of a message `receiveOne` refused, performed after it.
        var rejected: [SchedulerAction] = []

        init(
            service: CoordinatorService,
            router: ZMQSocket,
            committer: Committer,
            readers: FileReaders,
            scheduler: Scheduler
        ) {
            self.service = service
            self.router = router
            self.committer = committer
            self.readers = readers
            self.scheduler = scheduler
            jobs = JobEncoder(configuration: scheduler.configuration)
        }

        var security: CoordinatorConfiguration.Security? { scheduler.configuration.security }

        mutating func perform(_ actions: [SchedulerAction]) throws {
            for action in actions {
                switch action {
                case .sendJobs(let orders, let peer):
                    // Files the worker gets as bytes are read off this thread (`FileReaders`),
                    // and each goes in a JOB of its own when read (`send(_:)`).
                    for order in orders where order.fileInBlobs {
                        readers.submit(FileReaders.Request(order: order, peer: peer))
                    }
                    try sendJobs(orders.filter { !$0.fileInBlobs }, to: peer)
                case .send(let message, let peer):
                    send(MillCodec.encode(message.wire), to: peer)
                case .commit(let batch, let acks, let wall):
                    committer.submit(batch, acks: acks, now: wall)
                case .readSteering:
                    let steering = try service.catalog.steering()
                    try perform(
                        scheduler.steeringRead(
                            requeueMark: steering.requeueMark,
                            paused: Set(steering.paused.keys),
                            at: .now()
                        )
                    )
                case .fetchPage(let request):
                    let page = try service.catalog.pendingJobs(
                        tier: request.tier,
                        after: request.after,
                        now: request.dueBy,
                        limit: request.limit,
                        kinds: request.kinds
                    )
                    scheduler.pageFetched(page, for: request, at: .now())
                case .committedPhotos(let ids):
                    service.hooks.committed(ids)
                case .log(let entry):
                    entry.write(to: service.logger)
                }
            }
        }

        /// Jobs whose files the worker reads itself: one JOB, or as few JOBS as fit the
        /// limits (`MillCodec.batched`).
        private mutating func sendJobs(_ orders: [JobOrder], to peer: Data) throws {
            guard !orders.isEmpty else { return }
            var next = 0
            for (frames, count) in MillCodec.batched(orders.map { jobs.frames($0, blobs: []) }) {
                if !send(frames, to: peer) {
                    for order in orders[next..<next + count] {
                        try perform(scheduler.jobNotSent(order, because: .unreachable, at: .now()))
                    }
                }
                next += count
            }
        }

        /// A file a worker gets as bytes, read by the `FileReaders` (checked against the
        /// scan's size and mtime), sent as the JOB's blob frames.
        mutating func send(_ read: FileReaders.Read) throws {
            defer { readers.release(read) }
            let order = read.request.order
            switch read.payload {
            case .success(let (blobs, sidecar)):
                if !send(jobs.frames(order, blobs: blobs, sidecar: sidecar), to: read.request.peer) {
                    try perform(scheduler.jobNotSent(order, because: .unreachable, at: .now()))
                } else {
                    service.metrics?.sent(blobs)
                }
            case .failure(.unreadable(let text)):
                try perform(scheduler.jobNotSent(order, because: .fileUnreadable(.unreadable, text), at: .now()))
            case .failure(.changed(let text)):
                try perform(scheduler.jobNotSent(order, because: .fileUnreadable(.fileChanged, text), at: .now()))
            }
        }

        @discardableResult
        private func send(_ frames: [Data], to peer: Data) -> Bool {
            do {
                return try router.send([peer] + frames, dontWait: true)
            } catch {
                // EHOSTUNREACH (ROUTER_MANDATORY): the peer is gone; liveness will drop it.
                return false
            }
        }

        /// What the socket holds, bounded so that timers and dispatch keep running under a flood.
        mutating func receiveAll() throws {
            for _ in 0..<10_000 {
                let received = try receiveOne()
                try perform(rejected)
                rejected.removeAll()
                guard let (frames, key) = received else { return }
                guard let peer = frames.first, frames.count > 1 else { continue }
                let now = ClockReading.now()
                let message: MillMessage
                do {
                    message = try MillCodec.decode(Array(frames.dropFirst()))
                } catch {
                    try perform(scheduler.undecodable(error, from: peer, at: now))
                    continue
                }
                if let metrics = service.metrics {
                    switch message {
                    case .result(let result, _): metrics.processed(result.results)
                    case .results(let batch, _): for result in batch.results { metrics.processed(result.results) }
                    default: break
                    }
                }
                if case .ready(let ready) = message {
                    let allowed = security.map { security in key.map(security.admission.allows) ?? false } ?? true
                    try perform(scheduler.ready(WorkerHello(ready), from: peer, key: key, keyAllowed: allowed, at: now))
                } else {
                    for each in WorkerMessage.all(message) {
                        try perform(scheduler.received(each, from: peer, at: now))
                    }
                }
            }
        }

        /// One message; a message over the frame cap is counted and yields an empty one.
        /// A function of its own because Swift 6.3.1's SIL optimizer (AllocBoxToStack) never
        /// finishes on a typed-throws `catch … where` written inside `receiveAll`'s loop.
        /// With CURVE, also the sender's public key (the User-Id our ZAP handler gave it).
        private mutating func receiveOne() throws(ZMQError) -> (frames: [Data], property: String?)? {
            do {
                return try router.receive(dontWait: true, property: security == nil ? nil : "User-Id")
            } catch {
                guard error.discardedFrameCount != nil else { throw error }
                rejected = scheduler.reject(Data(), .tooManyFrames, detail: error.description, at: .now())
                return ([], nil)
            }
        }

        /// A batch is committed (or failed: the error ends the run, and no ACK goes out).
        mutating func settle(_ done: Committer.Done) throws {
            let report = try done.report.get()
            try perform(scheduler.committed(report, acks: done.acks))
        }

        /// Commits everything received so far and waits until it is written.
        mutating func flushAndWait() throws {
            if let done = committer.collect(wait: true) { try settle(done) }
            try perform(scheduler.flush(at: .now()))
            if let done = committer.collect(wait: true) { try settle(done) }
        }

        /// Waits up to `grace` seconds for the results of jobs still out, then tells the
        /// workers to go, hands back what is still out (without using an attempt) and commits.
        mutating func shutdown(grace: Double) throws {
            let deadline = MonotonicInstant.now() + grace
            var poller = Poller()
            _ = poller.register(router)
            while scheduler.hasJobsOut && MonotonicInstant.now() < deadline {
                if !(try poller.poll(timeoutMilliseconds: 50)).isEmpty { try receiveAll() }
            }
            try perform(scheduler.shutdown(at: .now()))
            try flushAndWait()
        }
    }
}
