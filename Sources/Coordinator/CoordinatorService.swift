import Catalog
import Foundation
import Logging
import MillProtocol
import SwiftProtobuf
import ZeroMQ

/// The coordinator: one ROUTER socket and the catalog, driven by one thread (the caller
/// of `run()`), which polls the socket with the nearest timer as its timeout.
///
/// Each loop turn: receive what the workers sent (READY, RESULT, FAIL, EXTEND,
/// HEARTBEAT, DISCONNECT), commit results in batches (ACKs go out only after the
/// commit), take back leases of silent workers and expired jobs, page due work from the
/// catalog into a bounded queue, hand jobs to workers with free credit, and heartbeat
/// idle workers. protocols/PROTOCOL.md is the normative description.
public final class CoordinatorService: @unchecked Sendable {
    // @unchecked: `stopping` is guarded by `lock`, `progress` by its own lock; everything
    // else belongs to the thread inside `run()`.
    public let configuration: CoordinatorConfiguration
    private let catalog: Catalog
    private let logger: Logger
    private let lock = NSLock()
    private var stopping = false
    /// Called (on the coordinator's thread) with the photo ids whose results were just committed.
    public var onCommitted: (@Sendable ([Int64]) -> Void)?

    private var sessions: [Data: WorkerSession] = [:]
    private var inFlight: [String: InFlight] = [:]            // by lease token
    private var tokenForJob: [String: String] = [:]           // job id → lease token
    private var readyQueue: [PendingJob] = []
    private var cursor: Int64 = 0
    private var reachedEnd = false
    private var nextRefill = 0.0
    private var requeueMark: Int64 = 0
    private var nextRequeueCheck = 0.0
    private var batch = CommitBatch()
    private var acks: [(routingId: Data, jobID: String, token: String)] = []
    private var lastFlush = 0.0
    private var violations = Violations()
    private var jobCounter = 0
    private var startedAt = 0.0
    private var changedWorkers: Set<Data> = []
    private var departed: [WorkerRow] = []

    public private(set) var boundEndpoints: [String] = []

    public init(configuration: CoordinatorConfiguration, catalog: Catalog, logger: Logger) {
        self.configuration = configuration
        self.catalog = catalog
        self.logger = logger
    }

    public func stop() {
        lock.withLock { stopping = true }
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    /// What a run ended with.
    public struct Outcome: Sendable {
        public var scan: ScanSummary
        public var violations: [String: Int]
    }

    /// Binds, scans and serves until `stop()` (or, with `exitWhenDone`, until no task is
    /// pending or leased). `onBound` is called once the sockets are bound.
    public func run(onBound: (([String]) -> Void)? = nil) throws -> Outcome {
        let context = try ZMQContext()
        let router = try ZMQSocket(context: context, type: .router)
        defer { router.close() }
        try router.set(.routerMandatory, to: true)
        try router.set(.linger, to: 0)
        try router.set(.maxMessageSize, to: Int64(Limits.default.maxFrameBytes))
        router.maxFrames = Limits.default.maxFrames + 1          // + the routing id frame
        for endpoint in configuration.bind {
            try router.bind(endpoint)
            boundEndpoints.append(try router.lastEndpoint)
        }
        onBound?(boundEndpoints)
        startedAt = now()
        try catalog.forgetWorkers()
        adoptOutstandingLeases()

        let scanner = Scanner(catalog: catalog, roots: configuration.roots, kinds: configuration.kinds,
                              isCandidate: configuration.isCandidate, logger: logger)
        scanner.start()

        var poller = Poller()
        _ = poller.register(router)
        var lastDoneCheck = 0.0
        while !isStopping {
            let ready = try poller.poll(timeoutMilliseconds: nextTimeout())
            if !ready.isEmpty { try receiveAll(router) }
            let time = now()
            let sinceFlush: Double = time - lastFlush
            if batch.results.count >= configuration.commitBatchSize || sinceFlush >= configuration.commitInterval {
                try flush(router)
            }
            checkLiveness(at: time)
            checkLeases(at: time)
            if readyQueue.count < configuration.readyQueueLimit / 4 && time >= nextRefill { try refill(at: time) }
            dispatch(router, at: time)
            heartbeat(router, at: time)
            if let failure = scanner.failure { throw failure }
            let idle: Bool = readyQueue.isEmpty && inFlight.isEmpty && batch.results.isEmpty
            let sinceCheck: Double = time - lastDoneCheck
            if configuration.exitWhenDone && scanner.finished && idle && sinceCheck > 0.2 {
                lastDoneCheck = time
                try flush(router)
                if try catalog.unfinishedTaskCount() == 0 { break }
            }
        }
        try shutdown(router)
        return Outcome(scan: scanner.summary, violations: violations.counts)
    }

    // MARK: Timers

    private func nextTimeout() -> Int {
        var timeout: Double = configuration.heartbeatInterval / 4
        if !batch.isEmpty {
            let untilFlush: Double = lastFlush + configuration.commitInterval - now()
            timeout = Swift.min(timeout, Swift.max(0.0, untilFlush))
        }
        let milliseconds: Int = Int(timeout * 1000)
        return Swift.max(1, milliseconds)
    }

    // MARK: Receiving

    private func receiveAll(_ router: ZMQSocket) throws {
        // Bounded, so timers and dispatch keep running under a flood.
        for _ in 0..<10_000 {
            guard let frames = try receiveOne(router) else { return }
            guard let peer = frames.first, frames.count > 1 else { continue }
            let message: MillMessage
            do {
                message = try MillCodec.decode(Array(frames.dropFirst()))
            } catch {
                reject(peer, reason: error.reason.rawValue, detail: error.description, at: now())
                continue
            }
            handle(message, from: peer, router: router)
        }
    }

    /// One message; a message over the frame cap is counted and yields an empty one.
    /// A function of its own because Swift 6.3.1's SIL optimizer (AllocBoxToStack) never
    /// finishes on a typed-throws `catch … where` written inside `receiveAll`'s loop.
    private func receiveOne(_ router: ZMQSocket) throws(ZMQError) -> [Data]? {
        do {
            return try router.receive(dontWait: true)
        } catch {
            guard error.discardedFrameCount != nil else { throw error }
            reject(Data(), reason: "too-many-frames", detail: error.description, at: now())
            return []
        }
    }

    private func handle(_ message: MillMessage, from peer: Data, router: ZMQSocket) {
        let time = now()
        if case .ready(let ready) = message {
            register(ready, peer: peer, at: time)
            return
        }
        guard sessions[peer] != nil else {
            // A worker of a previous coordinator (or a stranger): ask it to start over
            // with READY, which makes it re-send anything un-ACKed.
            reject(peer, reason: "unknown-peer", detail: describe(message.command, "before READY"), at: time)
            send(.disconnect(Self.startOver), to: peer, router: router)
            return
        }
        sessions[peer]?.lastSeen = time
        switch message {
        case .result(let result, let blobs):
            handleResult(result, blobs: blobs, from: peer, at: time)
        case .fail(let fail):
            handleFail(fail, from: peer, at: time)
        case .extend(let extend):
            handleExtend(extend, from: peer, at: time)
        case .heartbeat:
            break
        case .disconnect:
            workerLeft(peer)
        case .ready, .job, .ack:
            reject(peer, reason: "unexpected-command", detail: describe(message.command, "is not sent to the coordinator"), at: time)
        }
    }

    private static let startOver: Photomill_V1_Disconnect = {
        var body = Photomill_V1_Disconnect()
        body.reason = "unknown worker: send READY"
        return body
    }()

    private func describe(_ command: Command, _ text: String) -> String { command.description + " " + text }

    private func reject(_ peer: Data, reason: String, detail: String, at time: Double) {
        violations.record(reason, from: peer, detail: detail, logger: logger, at: time)
    }

    private func handleResult(_ result: Photomill_V1_Result, blobs: [Data], from peer: Data, at time: Double) {
        guard let flight = claim(result.jobID, token: result.leaseToken, peer: peer) else {
            reject(peer, reason: "unknown-job", detail: "RESULT for a job it does not hold: " + result.jobID, at: time)
            acks.append((peer, result.jobID, result.leaseToken))
            return
        }
        accept(ResultConversion.taskResults(result, blobs: blobs, lease: flight.lease), flight: flight, peer: peer, at: time)
    }

    private func handleFail(_ fail: Photomill_V1_Fail, from peer: Data, at time: Double) {
        guard let flight = claim(fail.jobID, token: fail.leaseToken, peer: peer) else {
            reject(peer, reason: "unknown-job", detail: "FAIL for a job it does not hold: " + fail.jobID, at: time)
            acks.append((peer, fail.jobID, fail.leaseToken))
            return
        }
        accept(ResultConversion.failures(fail, lease: flight.lease), flight: flight, peer: peer, at: time)
    }

    private func handleExtend(_ extend: Photomill_V1_Extend, from peer: Data, at time: Double) {
        guard let token = tokenForJob[extend.jobID], token == extend.leaseToken, var flight = inFlight[token],
              flight.routingId == peer, !flight.expired else {
            reject(peer, reason: "unknown-job", detail: "EXTEND for a job it does not hold: " + extend.jobID, at: time)
            return
        }
        let extended: Double = time + Double(extend.extraMs) / 1000
        flight.lease.expiresAt = Swift.max(flight.lease.expiresAt, extended)
        inFlight[token] = flight
        batch.extensions.append((token, flight.lease.expiresAt))
    }

    private func workerLeft(_ peer: Data) {
        let worker = sessions[peer]?.workerId ?? "?"
        logger.info("worker disconnected", metadata: ["worker": .string(worker)])
        drop(peer, reason: .shutdown, message: "worker " + worker + " stopped")
    }

    private func register(_ ready: Photomill_V1_Ready, peer: Data, at time: Double) {
        if sessions[peer] != nil {
            violations.record("duplicate-ready", from: peer, detail: "READY twice on one connection", logger: logger, at: time)
            return
        }
        // The same worker on a new connection: its jobs are still running there and
        // their results will come on this connection, so its leases move with it.
        if let old = sessions.first(where: { $0.value.workerId == ready.workerID })?.key {
            sessions[old] = nil
        }
        var session = WorkerSession(
            routingId: peer, workerId: ready.workerID, host: ready.host, slots: Int(ready.slots),
            kinds: Set(ready.kinds.compactMap(TaskKind.init)), ocrLanguages: Set(ready.ocrLanguages),
            connectedAt: time, lastSeen: time, lastSent: 0)
        for (token, var flight) in inFlight where flight.lease.worker == ready.workerID {
            flight.routingId = peer
            inFlight[token] = flight
            session.holding.insert(token)
        }
        sessions[peer] = session
        changedWorkers.insert(peer)
        logReady(session)
    }

    private func logReady(_ session: WorkerSession) {
        let kinds = session.kinds.sorted().map(\.rawValue).joined(separator: ",")
        let text = "worker " + session.workerId + " on " + session.host + " ready: " + String(session.slots) + " slots, " + kinds
        logger.info(Logger.Message(stringLiteral: text))
    }

    /// The in-flight job a RESULT or FAIL answers, if the sender holds it.
    private func claim(_ jobID: String, token: String, peer: Data) -> InFlight? {
        guard let known = tokenForJob[jobID], known == token, let flight = inFlight[token] else { return nil }
        let sameConnection: Bool = flight.routingId == peer
        let sameWorker: Bool = flight.lease.worker == sessions[peer]?.workerId
        guard sameConnection || sameWorker else { return nil }
        inFlight[token] = nil
        tokenForJob[jobID] = nil
        sessions[peer]?.holding.remove(token)
        changedWorkers.insert(peer)
        return flight
    }

    private func accept(_ results: [TaskResult], flight: InFlight, peer: Data, at time: Double) {
        let failedAny: Bool = results.contains { (result: TaskResult) -> Bool in
            if case .failure = result.outcome { return true }
            return false
        }
        if failedAny { sessions[peer]?.failed += 1 } else { sessions[peer]?.done += 1 }
        let worker = sessions[peer]?.workerId ?? flight.lease.worker
        for result in results {
            batch.results.append(ReportedResult(result: result, worker: worker, startedAt: flight.lease.leasedAt, endedAt: time))
        }
        acks.append((peer, flight.jobID, flight.lease.token))
    }

    // MARK: Committing

    private func flush(_ router: ZMQSocket) throws {
        lastFlush = now()
        for peer in changedWorkers {
            guard let session = sessions[peer] else { continue }
            batch.workers.append(session.row(state: "connected"))
            sessions[peer]?.lastRecorded = session.lastSeen
        }
        batch.workers += departed
        guard !batch.isEmpty || !acks.isEmpty else { return }
        let report = try catalog.commit(batch, now: lastFlush, retry: configuration.retry)
        batch = CommitBatch()
        changedWorkers.removeAll()
        departed.removeAll()
        // Only now, with the transaction committed, may the workers forget their results.
        var byPeer: [Data: Photomill_V1_Ack] = [:]
        for (peer, jobID, token) in acks {
            if report.committed.contains(token) { byPeer[peer, default: .init()].committed.append(jobID) }
            else { byPeer[peer, default: .init()].discarded.append(jobID) }
        }
        acks.removeAll()
        for (peer, ack) in byPeer { send(.ack(ack), to: peer, router: router) }
        if !report.touchedPhotos.isEmpty { onCommitted?(Array(report.touchedPhotos)) }
    }

    // MARK: Leases

    /// Leases a previous coordinator granted, found in the catalog: their workers get
    /// `orphanGrace` seconds to come back (and re-send results) before they are released.
    private func adoptOutstandingLeases() {
        guard let leases = try? catalog.outstandingLeases(), !leases.isEmpty else { return }
        let deadline = now() + configuration.orphanGrace
        for var lease in leases {
            lease.expiresAt = max(lease.expiresAt, deadline)
            let jobID = "restart-\(lease.token.prefix(12))"
            inFlight[lease.token] = InFlight(lease: lease, jobID: jobID, routingId: nil)
            tokenForJob[jobID] = lease.token
        }
        logger.info("found \(leases.count) leases of a previous run; waiting up to \(Int(configuration.orphanGrace)) s for their workers")
    }

    private func checkLiveness(at time: Double) {
        let limit = Double(configuration.liveness) * configuration.heartbeatInterval
        for (peer, session) in sessions {
            let silence: Double = time - session.lastSeen
            // `status` shows each worker's last heartbeat from the catalog.
            if session.lastSeen - session.lastRecorded >= configuration.heartbeatInterval { changedWorkers.insert(peer) }
            guard silence > limit else { continue }
            let seconds = String(format: "%.1f", silence)
            let message = "worker \(session.workerId) on \(session.host) stopped answering (no message for \(seconds) s)"
            logger.warning("\(message): releasing its \(session.holding.count) jobs")
            drop(peer, reason: .workerLost, message: message)
        }
    }

    /// Forgets a worker and takes back every lease it held.
    private func drop(_ peer: Data, reason: Release.Reason, message: String) {
        guard let session = sessions.removeValue(forKey: peer) else { return }
        for token in session.holding {
            guard let flight = inFlight.removeValue(forKey: token) else { continue }
            tokenForJob[flight.jobID] = nil
            if !flight.expired { batch.releases.append(Release(lease: flight.lease, reason: reason, message: message)) }
        }
        changedWorkers.remove(peer)
        var row = session.row(state: "gone")
        row.inFlight = 0
        departed.append(row)
    }

    private func checkLeases(at time: Double) {
        for (token, flight) in inFlight {
            guard !flight.expired, time > flight.lease.expiresAt else { continue }
            if flight.routingId == nil {
                // An inherited lease whose worker never came back.
                inFlight[token] = nil
                tokenForJob[flight.jobID] = nil
                batch.releases.append(Release(lease: flight.lease, reason: .workerLost,
                                              message: "worker \(flight.lease.worker) did not come back after a coordinator restart"))
                continue
            }
            inFlight[token]?.expired = true
            batch.releases.append(Release(lease: flight.lease, reason: .leaseExpired,
                                          message: "job ran past its deadline on worker \(flight.lease.worker)"))
        }
    }

    // MARK: Dispatching

    /// Pages due work from the catalog. Leases granted since the last commit are committed
    /// first, so that the catalog never offers a job that is already out.
    private func refill(at time: Double) throws {
        if time >= nextRequeueCheck {
            // `retry` and `reprocess` put tasks back behind the cursor (and a queue of jobs
            // no worker can take would keep it from wrapping): page again from the start.
            // The ready queue's jobs are still pending in the catalog, so none is lost.
            nextRequeueCheck = time + 0.5
            let mark = try catalog.latestRequeue()
            if mark != requeueMark {
                requeueMark = mark
                readyQueue.removeAll()
                cursor = 0
                reachedEnd = false
            }
        }
        if reachedEnd {
            guard readyQueue.isEmpty else { return }
            cursor = 0
            reachedEnd = false
        }
        if !batch.leases.isEmpty { try flushLeasesOnly() }
        let limit = configuration.readyQueueLimit - readyQueue.count
        let page = try catalog.pendingJobs(afterPhoto: cursor, now: time, limit: limit)
        readyQueue += page
        if let last = page.last { cursor = last.photoId }
        if page.count < limit {
            reachedEnd = true
            // Nothing more is due now: look again shortly, not on every loop turn.
            if page.isEmpty { nextRefill = time + 0.25 }
        }
    }

    private func flushLeasesOnly() throws {
        var leases = CommitBatch()
        leases.leases = batch.leases
        batch.leases.removeAll()
        _ = try catalog.commit(leases, now: now(), retry: configuration.retry)
    }

    private func dispatch(_ router: ZMQSocket, at time: Double) {
        guard !readyQueue.isEmpty else { return }
        let language = configuration.parameters.ocrLanguage
        let byCredit: [Data] = sessions.values.sorted { $0.credit > $1.credit }.map(\.routingId)
        for peer in byCredit {
            while let session = sessions[peer], session.credit > 0 {
                guard let index = readyQueue.prefix(256).firstIndex(where: { session.canTake($0.kinds, ocrLanguage: language) }) else { break }
                let job = readyQueue.remove(at: index)
                if !send(job, to: session, router: router, at: time) { break }
            }
        }
    }

    private func send(_ job: PendingJob, to session: WorkerSession, router: ZMQSocket, at time: Double) -> Bool {
        jobCounter += 1
        let jobID = "\(job.photoId).\(jobCounter)"
        let token = Self.newToken()
        let deadlines: [Photomill_V1_KindDeadline] = job.kinds.map { kind in
            var entry = Photomill_V1_KindDeadline()
            entry.kind = kind.wire
            entry.deadlineMs = UInt32(deadlineSeconds(kind) * 1000)
            return entry
        }
        let deadline: Double = job.kinds.map(deadlineSeconds).max() ?? 60
        var message = Photomill_V1_Job()
        message.jobID = jobID
        message.photoID = job.photoId
        message.path = job.path
        message.fileSize = UInt64(job.size)
        message.fileMtimeNs = job.mtimeNs
        message.kinds = job.kinds.map(\.wire)
        message.leaseToken = token
        message.deadlines = deadlines
        message.parameters = jobParameters
        guard send(.job(message, blobs: []), to: session.routingId, router: router) else {
            readyQueue.insert(job, at: 0)
            return false
        }
        let lease = Lease(photoId: job.photoId, kinds: job.kinds, token: token, worker: session.workerId,
                          leasedAt: time, expiresAt: time + deadline)
        batch.leases.append(lease)
        inFlight[token] = InFlight(lease: lease, jobID: jobID, routingId: session.routingId)
        tokenForJob[jobID] = token
        sessions[session.routingId]?.holding.insert(token)
        sessions[session.routingId]?.lastSent = time
        changedWorkers.insert(session.routingId)
        return true
    }

    private func deadlineSeconds(_ kind: TaskKind) -> Double { configuration.deadlines[kind] ?? 60 }

    private var jobParameters: Photomill_V1_ProcessingParameters {
        let p = configuration.parameters
        var parameters = Photomill_V1_ProcessingParameters()
        parameters.thumbnailSize = UInt32(p.thumbnailSize)
        parameters.thumbnailQuality = UInt32(p.thumbnailQuality)
        parameters.ocrLanguage = p.ocrLanguage
        parameters.ocrMaxSide = UInt32(p.ocrMaxSide)
        parameters.pixelLimit = UInt64(p.pixelLimit)
        return parameters
    }

    private func heartbeat(_ router: ZMQSocket, at time: Double) {
        for (peer, session) in sessions where time - session.lastSent >= configuration.heartbeatInterval {
            send(.heartbeat(), to: peer, router: router)
            sessions[peer]?.lastSent = time
        }
    }

    @discardableResult
    private func send(_ message: MillMessage, to peer: Data, router: ZMQSocket) -> Bool {
        do {
            return try router.send([peer] + MillCodec.encode(message), dontWait: true)
        } catch {
            // EHOSTUNREACH (ROUTER_MANDATORY): the peer is gone; liveness will drop it.
            return false
        }
    }

    // MARK: Stopping

    /// Commits what came in, hands back what is still out (without using an attempt),
    /// and tells the workers to go.
    private func shutdown(_ router: ZMQSocket) throws {
        let grace: Double = configuration.exitWhenDone ? 0 : 5
        let deadline: Double = now() + grace
        var poller = Poller()
        _ = poller.register(router)
        while !inFlight.isEmpty && now() < deadline {
            if !(try poller.poll(timeoutMilliseconds: 50)).isEmpty { try receiveAll(router) }
        }
        for (peer, _) in sessions {
            send(.disconnect(.with { $0.reason = "coordinator stopping" }), to: peer, router: router)
            drop(peer, reason: .shutdown, message: "coordinator stopped")
        }
        for (_, flight) in inFlight where !flight.expired {
            batch.releases.append(Release(lease: flight.lease, reason: .shutdown, message: "coordinator stopped"))
        }
        inFlight.removeAll()
        try flush(router)
    }

    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let high: UInt64 = generator.next(), low: UInt64 = generator.next()
        return String(high, radix: 16) + "-" + String(low, radix: 16)
    }

    func now() -> Double { Date().timeIntervalSince1970 }
}
