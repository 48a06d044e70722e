import Catalog
import Foundation
import Logging
import MillProtocol
import PhotomillCore
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
    /// Called once (on the coordinator's thread) as soon as there is work: tasks left
    /// unfinished in the catalog, or the scan queued some. `photomill run` starts its
    /// workers here, so that a re-run over an unchanged tree starts none.
    public var onWorkPending: (@Sendable () -> Void)?
    private var announcedWork = false

    private var sessions: [Data: WorkerSession] = [:]
    private var inFlight: [String: InFlight] = [:]            // by lease token
    private var tokenForJob: [String: String] = [:]           // job id → lease token
    private var readyQueue = ReadyQueue()
    private var cursor: Int64 = 0
    private var reachedEnd = false
    private var nextRefill = 0.0
    private var requeueMark: Int64 = 0
    private var nextRequeueCheck = 0.0
    private var batch = CommitBatch()
    private var acks: [PendingAck] = []
    /// Set at the start of `run()`; writes the batches on its own thread.
    private var committer: Committer!
    private var lastFlush = 0.0
    private var violations = Violations()
    private var departures = Departures()
    private var jobCounter = 0
    private var startedAt = 0.0
    private var changedWorkers: Set<Data> = []
    private var departed: [WorkerRow] = []
    /// Kinds some connected worker offers; the catalog is paged for these only.
    private var available: Set<Kind> = []
    private var admittedGeneration = 0
    private var recordedWaits: [Kind: String]?
    /// `jobTail(_:)`'s encodings, by the job's kinds.
    private var jobTails: [[Kind]: Data] = [:]

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
        let admission = configuration.security?.admission
        defer { admission?.stop() }
        if let security = configuration.security {
            // Handler first, options before bind (docs/zeromq.md): no handshake without a verdict.
            try security.admission.start(context: context)
            try router.set(.zapDomain, to: Admission.zapDomain)
            try router.set(.zapEnforceDomain, to: true)
            try router.set(.curveServer, to: true)
            try router.set(.curveSecretKey, to: security.secretKey)
            admittedGeneration = security.admission.generation
        }
        for endpoint in configuration.bind {
            try router.bind(endpoint)
            boundEndpoints.append(try router.lastEndpoint)
        }
        onBound?(boundEndpoints)
        startedAt = now()
        committer = try Committer(catalog: catalog, retry: configuration.retry)
        defer { committer.stop() }
        try catalog.forgetWorkers()
        capabilitiesChanged()
        adoptOutstandingLeases()

        let scanner = Scanner(catalog: catalog, roots: configuration.roots, kinds: configuration.kinds,
                              isCandidate: configuration.isCandidate, logger: logger)
        scanner.start()

        var poller = Poller()
        let socketIndex = poller.register(router)
        let committedIndex = poller.register(fileDescriptor: committer.wakeDescriptor)
        var lastDoneCheck = 0.0
        var nextLeaseCheck = 0.0
        if try catalog.unfinishedTaskCount() > 0 { announceWork() }
        while !isStopping {
            for ready in try poller.poll(timeoutMilliseconds: nextTimeout()) {
                if ready.index == socketIndex { try receiveAll(router) }
                if ready.index == committedIndex, let done = committer.collect() { try settle(done, router: router) }
            }
            let time = now()
            let sinceFlush: Double = time - lastFlush
            if batch.results.count >= configuration.commitBatchSize || sinceFlush >= configuration.commitInterval {
                try flush(router)
            }
            if let admission, admission.generation != admittedGeneration { checkKeys(admission, router: router) }
            if time >= nextLeaseCheck {
                // Liveness and deadlines are whole seconds: ten looks a second suffice,
                // where a look per loop turn would walk every lease per message.
                nextLeaseCheck = time + 0.1
                checkLiveness(at: time)
                checkLeases(at: time)
            }
            if readyQueue.count < configuration.readyQueueLimit / 4 && time >= nextRefill { try refill(at: time) }
            dispatch(router, at: time)
            heartbeat(router, at: time)
            if let failure = scanner.failure { throw failure }
            if !announcedWork && scanner.summary.queuedTasks > 0 { announceWork() }
            let idle: Bool = readyQueue.isEmpty && inFlight.isEmpty && batch.results.isEmpty
            let sinceCheck: Double = time - lastDoneCheck
            if configuration.exitWhenDone && scanner.finished && idle && sinceCheck > 0.2 {
                lastDoneCheck = time
                try flushAndWait(router)
                if try catalog.unfinishedTaskCount() == 0 { break }
                announceWork()     // e.g. `photomill retry` during the scan
            }
        }
        try shutdown(router)
        return Outcome(scan: scanner.summary, violations: violations.counts)
    }

    private func announceWork() {
        guard !announcedWork else { return }
        announcedWork = true
        onWorkPending?()
    }

    // MARK: Timers

    private func nextTimeout() -> Int {
        var timeout: Double = configuration.heartbeatInterval / 4
        if !batch.isEmpty && !committer.isBusy {
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
            guard let (frames, key) = try receiveOne(router) else { return }
            guard let peer = frames.first, frames.count > 1 else { continue }
            let message: MillMessage
            do {
                message = try MillCodec.decode(Array(frames.dropFirst()))
            } catch {
                reject(peer, reason: error.reason.rawValue, detail: error.description, at: now())
                continue
            }
            handle(message, from: peer, key: key, router: router)
        }
    }

    /// One message; a message over the frame cap is counted and yields an empty one.
    /// A function of its own because Swift 6.3.1's SIL optimizer (AllocBoxToStack) never
    /// finishes on a typed-throws `catch … where` written inside `receiveAll`'s loop.
    /// With CURVE, also the sender's public key (the User-Id our ZAP handler gave it).
    private func receiveOne(_ router: ZMQSocket) throws(ZMQError) -> (frames: [Data], property: String?)? {
        do {
            return try router.receive(dontWait: true, property: configuration.security == nil ? nil : "User-Id")
        } catch {
            guard error.discardedFrameCount != nil else { throw error }
            reject(Data(), reason: "too-many-frames", detail: error.description, at: now())
            return ([], nil)
        }
    }

    private func handle(_ message: MillMessage, from peer: Data, key: String?, router: ZMQSocket) {
        let time = now()
        if case .ready(let ready) = message {
            if let admission = configuration.security?.admission, !(key.map(admission.allows) ?? false) {
                // Admitted at the handshake, removed from the allow-list since.
                reject(peer, reason: "key-not-allowed", detail: "READY from a key no longer in the allow-list", at: time)
                send(.disconnect(.with { $0.reason = "key not allowed" }), to: peer, router: router)
                return
            }
            register(ready, peer: peer, key: key, at: time)
            return
        }
        guard let session = sessions[peer] else {
            // A worker of a previous coordinator, one taken for dead, or a stranger: ask it
            // to start over with READY, which makes it re-send anything un-ACKed.
            if !departures.knows(peer: peer) {
                reject(peer, reason: "unknown-peer", detail: describe(message.command, "before READY"), at: time)
            }
            send(.disconnect(Self.startOver), to: peer, router: router)
            return
        }
        session.lastSeen = time
        switch message {
        case .result(let result, let blobs):
            handleResult(result, blobs: blobs, from: session, at: time)
        case .fail(let fail):
            handleFail(fail, from: session, at: time)
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

    private func handleResult(_ result: Photomill_V1_Result, blobs: [Data], from session: WorkerSession, at time: Double) {
        let peer = session.routingId
        guard let flight = claim(result.jobID, token: result.leaseToken, session: session) else {
            if let late = departures.take(result.jobID, token: result.leaseToken) {
                // Its lease was taken back: the commit finds the token stale and records that.
                accept(ResultConversion.taskResults(result, blobs: blobs, lease: late.lease), flight: late,
                       jobID: result.jobID, session: session, at: time)
                return
            }
            reject(peer, reason: "unknown-job", detail: "RESULT for a job it does not hold: " + result.jobID, at: time)
            acks.append(PendingAck(routingId: peer, jobID: result.jobID, token: result.leaseToken))
            return
        }
        accept(ResultConversion.taskResults(result, blobs: blobs, lease: flight.lease), flight: flight,
               jobID: result.jobID, session: session, at: time)
    }

    private func handleFail(_ fail: Photomill_V1_Fail, from session: WorkerSession, at time: Double) {
        let peer = session.routingId
        guard let flight = claim(fail.jobID, token: fail.leaseToken, session: session) ?? departures.take(fail.jobID, token: fail.leaseToken) else {
            reject(peer, reason: "unknown-job", detail: "FAIL for a job it does not hold: " + fail.jobID, at: time)
            acks.append(PendingAck(routingId: peer, jobID: fail.jobID, token: fail.leaseToken))
            return
        }
        if ErrorClass(rawValue: fail.errorClass) == .shuttingDown {
            // A draining worker hands the job back: no attempt used (PROTOCOL.md, error classes).
            batch.releases.append(Release(lease: flight.lease, reason: .shutdown, message: fail.message))
            acks.append(PendingAck(routingId: peer, jobID: fail.jobID, token: flight.lease.token))
            return
        }
        accept(ResultConversion.failures(fail, lease: flight.lease), flight: flight, jobID: fail.jobID, session: session, at: time)
    }

    private func handleExtend(_ extend: Photomill_V1_Extend, from peer: Data, at time: Double) {
        guard let token = tokenForJob[extend.jobID], token == extend.leaseToken, var flight = inFlight[token],
              flight.routingId == peer else {
            guard !departures.holds(extend.jobID, token: extend.leaseToken) else { return }
            reject(peer, reason: "unknown-job", detail: "EXTEND for a job it does not hold: " + extend.jobID, at: time)
            return
        }
        // Taken back already: an honest worker still busy with it; its result will be stale.
        guard !flight.expired else { return }
        // Capped, so that a job hung inside a worker whose socket thread still EXTENDs is
        // taken back in the end.
        let cap: Double = flight.lease.leasedAt + configuration.leaseCapFactor * flight.lease.kinds.map(deadlineSeconds).max()!
        let extended: Double = Swift.min(time + Double(extend.extraMs) / 1000, cap)
        flight.lease.expiresAt = Swift.max(flight.lease.expiresAt, extended)
        inFlight[token] = flight
        batch.extensions.append((token, flight.lease.expiresAt))
    }

    private func workerLeft(_ peer: Data) {
        let worker = sessions[peer]?.workerId ?? "?"
        logger.info("worker disconnected", metadata: ["worker": .string(worker)])
        drop(peer, reason: .shutdown, message: "worker " + worker + " stopped")
    }

    private func register(_ ready: Photomill_V1_Ready, peer: Data, key: String?, at time: Double) {
        if sessions[peer] != nil {
            violations.record("duplicate-ready", from: peer, detail: "READY twice on one connection", logger: logger, at: time)
            return
        }
        // The same worker on a new connection: its jobs are still running there and
        // their results will come on this connection, so its leases move with it.
        if let old = sessions.first(where: { $0.value.workerId == ready.workerID })?.key {
            sessions[old] = nil
        }
        let session = WorkerSession(
            routingId: peer, workerId: ready.workerID, host: ready.host, slots: Int(ready.slots),
            kinds: Set(ready.kinds.compactMap(Kind.init)), ocrLanguages: Set(ready.ocrLanguages),
            pathRoots: ready.pathRoots, publicKey: key, connectedAt: time, lastSeen: time, lastSent: 0)
        for (token, var flight) in inFlight where flight.lease.worker == ready.workerID {
            flight.routingId = peer
            inFlight[token] = flight
            session.holding.insert(token)
        }
        sessions[peer] = session
        changedWorkers.insert(peer)
        logReady(session)
        capabilitiesChanged()
    }

    /// After an allow-list reload: workers whose key was removed are told to go and lose
    /// their leases; their reconnection then fails the handshake.
    private func checkKeys(_ admission: Admission, router: ZMQSocket) {
        admittedGeneration = admission.generation
        for (peer, session) in sessions {
            guard let key = session.publicKey, !admission.allows(key) else { continue }
            logger.warning("worker \(session.workerId) on \(session.host): its key was removed from the allow-list; disconnecting it")
            send(.disconnect(.with { $0.reason = "key not allowed" }), to: peer, router: router)
            drop(peer, reason: .workerLost, message: "worker \(session.workerId): key removed from the allow-list")
        }
    }

    /// The connected workers changed: page only the kinds someone can take, and record
    /// why the others wait.
    private func capabilitiesChanged() {
        let language = configuration.parameters.ocrLanguage
        let offered = Routing.available(sessions.values, ocrLanguage: language)
        let waits = Routing.waiting(kinds: configuration.kinds, sessions: sessions.values, ocrLanguage: language)
        if waits != recordedWaits {
            do {
                try catalog.recordWaiting(waits.reduce(into: [:]) { $0[$1.key.rawValue] = $1.value })
                recordedWaits = waits
            } catch {
                logger.warning("cannot record why tasks wait: \(error)")
            }
        }
        guard offered != available else { return }
        if !offered.isSubset(of: available) {
            // Work skipped so far may be takeable now: page the catalog from the start.
            readyQueue.removeAll()
            cursor = 0
            reachedEnd = false
            nextRefill = 0
        } else {
            readyQueue.update { job in
                var job = job
                job.kinds.removeAll { !offered.contains($0) }
                return job.kinds.isEmpty ? nil : job
            }
        }
        available = offered
    }

    private func logReady(_ session: WorkerSession) {
        let kinds = session.kinds.sorted().map(\.rawValue).joined(separator: ",")
        let files = session.pathRoots.isEmpty ? "files as bytes" : "reads " + session.pathRoots.joined(separator: ", ")
        let text = "worker " + session.workerId + " on " + session.host + " ready: " + String(session.slots) + " slots, " + kinds + "; " + files
        logger.info(Logger.Message(stringLiteral: text))
    }

    /// The in-flight job a RESULT or FAIL answers, if the sender holds it.
    private func claim(_ jobID: String, token: String, session: WorkerSession) -> InFlight? {
        // A lease inherited from a previous coordinator is known by its token alone: the
        // job id the worker re-sends was given by that coordinator.
        guard let flight = inFlight[token], flight.jobID == jobID || flight.inherited else { return nil }
        let jobID = flight.jobID
        let sameConnection: Bool = flight.routingId == session.routingId
        let sameWorker: Bool = flight.lease.worker == session.workerId
        guard sameConnection || sameWorker else { return nil }
        inFlight[token] = nil
        tokenForJob[jobID] = nil
        session.holding.remove(token)
        changedWorkers.insert(session.routingId)
        return flight
    }

    private func accept(_ results: [TaskResult], flight: InFlight, jobID: String, session: WorkerSession, at time: Double) {
        let failedAny: Bool = results.contains { (result: TaskResult) -> Bool in
            if case .failure = result.outcome { return true }
            return false
        }
        if failedAny { session.failed += 1 } else { session.done += 1 }
        for result in results {
            batch.results.append(ReportedResult(result: result, worker: session.workerId, startedAt: flight.lease.leasedAt, endedAt: time))
        }
        acks.append(PendingAck(routingId: session.routingId, jobID: jobID, token: flight.lease.token))
    }

    // MARK: Committing

    /// Hands what came in to the committer, unless it is still writing the previous
    /// batch: then this one goes on growing until the committer is free.
    private func flush(_ router: ZMQSocket) throws {
        guard !committer.isBusy else { return }
        lastFlush = now()
        for peer in changedWorkers {
            guard let session = sessions[peer] else { continue }
            batch.workers.append(session.row(state: "connected"))
            session.lastRecorded = session.lastSeen
        }
        batch.workers += departed
        batch.violations = violations.takeUncommitted()
        // Leases of jobs still out, younger than `leaseWriteDelay`, wait for their results.
        var waiting: [Lease] = []
        batch.leases.removeAll { lease in
            guard lastFlush - lease.leasedAt < configuration.leaseWriteDelay,
                  let flight = inFlight[lease.token], !flight.expired else { return false }
            waiting.append(lease)
            return true
        }
        guard !batch.isEmpty || !acks.isEmpty else {
            batch.leases = waiting
            return
        }
        // A lease that waited may have been extended meanwhile.
        batch.leases = batch.leases.map { inFlight[$0.token]?.lease ?? $0 }
        committer.submit(batch, acks: acks, now: lastFlush)
        batch = CommitBatch()
        batch.leases = waiting
        acks.removeAll()
        changedWorkers.removeAll()
        departed.removeAll()
    }

    /// A batch is committed: only now may the workers forget their results.
    private func settle(_ done: Committer.Done, router: ZMQSocket) throws {
        let report = try done.report.get()
        var byPeer: [Data: Photomill_V1_Ack] = [:]
        var seen: Set<PendingAck> = []
        let most = FieldBounds.ackEntries.upperBound
        for ack in done.acks where seen.insert(ack).inserted {
            if report.committed.contains(ack.token) { byPeer[ack.routingId, default: .init()].committed.append(ack.jobID) }
            else { byPeer[ack.routingId, default: .init()].discarded.append(ack.jobID) }
            // An ACK names at most `most` jobs: a batch that grew while the committer was busy goes out in several.
            if let full = byPeer[ack.routingId], full.committed.count + full.discarded.count == most {
                send(.ack(full), to: ack.routingId, router: router)
                byPeer[ack.routingId] = nil
            }
        }
        for (peer, ack) in byPeer { send(.ack(ack), to: peer, router: router) }
        if !report.touchedPhotos.isEmpty { onCommitted?(Array(report.touchedPhotos)) }
    }

    /// Commits everything received so far and waits until it is written.
    private func flushAndWait(_ router: ZMQSocket) throws {
        if let done = committer.collect(wait: true) { try settle(done, router: router) }
        try flush(router)
        if let done = committer.collect(wait: true) { try settle(done, router: router) }
    }

    // MARK: Leases

    /// Leases a previous coordinator granted, found in the catalog: their workers get
    /// `orphanGrace` seconds to come back (and re-send results) before they are released.
    private func adoptOutstandingLeases() {
        guard let leases = try? catalog.outstandingLeases(), !leases.isEmpty else { return }
        let deadline = now() + configuration.orphanGrace
        for var lease in leases {
            lease.expiresAt = max(lease.expiresAt, deadline)
            let jobID = InFlight.inheritedPrefix + lease.token.prefix(12)
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
            if reason == .workerLost { departures.remember(flight) }
        }
        departures.remember(peer: peer)
        changedWorkers.remove(peer)
        var row = session.row(state: "gone")
        row.inFlight = 0
        departed.append(row)
        capabilitiesChanged()
    }

    private func checkLeases(at time: Double) {
        let graceOver: Bool = time > startedAt + configuration.orphanGrace
        for (token, flight) in inFlight where !flight.expired {
            if flight.routingId == nil {
                // An inherited lease whose worker did not come back within the grace (its
                // own deadline may be minutes away: it does not matter, nobody works on it).
                guard graceOver else { continue }
                inFlight[token] = nil
                tokenForJob[flight.jobID] = nil
                departures.remember(flight)
                batch.releases.append(Release(lease: flight.lease, reason: .workerLost,
                                              message: "worker \(flight.lease.worker) did not come back after a coordinator restart"))
                continue
            }
            guard time > flight.lease.expiresAt else { continue }
            inFlight[token]?.expired = true
            batch.releases.append(Release(lease: flight.lease, reason: .leaseExpired,
                                          message: "job ran past its deadline on worker \(flight.lease.worker)"))
        }
    }

    // MARK: Dispatching

    /// Pages due work from the catalog. Leases granted since the last commit are not in
    /// the catalog yet (they are written with a later batch, together with the results
    /// that already came back, or are being written now), so the page is filtered
    /// against them.
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
        guard !available.isEmpty else { return }
        let limit = configuration.readyQueueLimit - readyQueue.count
        let page = try catalog.pendingJobs(afterPhoto: cursor, now: time, limit: limit, kinds: available)
        if let last = page.last { cursor = last.photoId }
        if page.count < limit {
            reachedEnd = true
            // Nothing more is due now: look again shortly, not on every loop turn.
            if page.isEmpty { nextRefill = time + 0.25 }
        }
        let unwritten = batch.leases + committer.leasesInFlight
        guard !unwritten.isEmpty else { return readyQueue.append(contentsOf: page) }
        var out: Set<TaskKey> = []
        for lease in unwritten { for kind in lease.kinds { out.insert(TaskKey(photoId: lease.photoId, kind: kind)) } }
        readyQueue.append(contentsOf: page.filter { job in !job.kinds.contains { out.contains(TaskKey(photoId: job.photoId, kind: $0)) } })
    }

    private struct TaskKey: Hashable {
        var photoId: Int64
        var kind: Kind
    }

    private func dispatch(_ router: ZMQSocket, at time: Double) {
        guard !readyQueue.isEmpty else { return }
        let language = configuration.parameters.ocrLanguage
        let byCredit: [Data] = sessions.values.sorted { $0.credit > $1.credit }.map(\.routingId)
        for peer in byCredit {
            while let session = sessions[peer], session.credit > 0 {
                // What this worker does not offer stays queued for another.
                guard let job = readyQueue.takeShare(within: 256, share: { session.share(of: $0, ocrLanguage: language) })
                else { break }
                if !send(job, to: session, router: router, at: time) { break }
            }
        }
    }

    private func send(_ job: PendingJob, to session: WorkerSession, router: ZMQSocket, at time: Double) -> Bool {
        jobCounter += 1
        let jobID = "\(job.photoId).\(jobCounter)"
        let token = tokenPrefix + String(jobCounter, radix: 16)
        let deadline: Double = job.kinds.map(deadlineSeconds).max() ?? 60
        var message = Photomill_V1_Job()
        message.jobID = jobID
        message.photoID = job.photoId
        message.path = job.path
        message.fileSize = UInt64(job.size)
        message.fileMtimeNs = job.mtimeNs
        message.kinds = job.kinds.map(Photomill_V1_Kind.init)
        message.leaseToken = token
        // The clock read now, not the loop turn's: a commit earlier in this turn may have
        // re-queued the task, and the catalog tells a lease from a later re-queue by time.
        let leasedAt = now()
        let lease = Lease(photoId: job.photoId, kinds: job.kinds, token: token, worker: session.workerId,
                          leasedAt: leasedAt, expiresAt: leasedAt + deadline)
        var blobs: [Data] = []
        if !session.reads(job.path) {
            switch BlobTransfer.frames(of: job) {
            case .success(let frames):
                blobs = frames
                message.fileInBlobs = true
            case .failure(let failure):
                // Settled here like a FAIL from the worker: an attempt, with the cause.
                batch.leases.append(lease)
                let (errorClass, text): (ErrorClass, String) = switch failure {
                case .unreadable(let text): (.unreadable, text)
                case .changed(let text): (.changedSinceScan, text)
                }
                let fail = Photomill_V1_Fail.with {
                    $0.errorClass = errorClass.rawValue
                    $0.message = text
                    $0.retryable = true
                }
                for result in ResultConversion.failures(fail, lease: lease) {
                    batch.results.append(ReportedResult(result: result, worker: session.workerId, startedAt: time, endedAt: time))
                }
                return true
            }
        }
        guard send(MillCodec.encodeJob(message, tail: jobTail(job.kinds), blobs: blobs), to: session.routingId, router: router) else {
            readyQueue.putBack(job)
            return false
        }
        batch.leases.append(lease)
        inFlight[token] = InFlight(lease: lease, jobID: jobID, routingId: session.routingId)
        tokenForJob[jobID] = token
        session.holding.insert(token)
        session.lastSent = time
        changedWorkers.insert(session.routingId)
        return true
    }

    private func deadlineSeconds(_ kind: Kind) -> Double { configuration.deadlines[kind] ?? 60 }

    /// The JOB fields that are the same for every job of a run with these kinds (the
    /// processing parameters, the deadlines), encoded once per set of kinds: encoding
    /// them was a third of the cost of encoding a JOB.
    private func jobTail(_ kinds: [Kind]) -> Data {
        if let tail = jobTails[kinds] { return tail }
        let p = configuration.parameters
        var fields = Photomill_V1_Job()
        fields.deadlines = kinds.map { kind in
            var entry = Photomill_V1_KindDeadline()
            entry.kind = Photomill_V1_Kind(kind)
            entry.deadlineMs = UInt32(deadlineSeconds(kind) * 1000)
            return entry
        }
        fields.parameters = Photomill_V1_ProcessingParameters(p)
        let tail = MillCodec.jobTail(fields)
        jobTails[kinds] = tail
        return tail
    }

    private func heartbeat(_ router: ZMQSocket, at time: Double) {
        for (peer, session) in sessions where time - session.lastSent >= configuration.heartbeatInterval {
            send(.heartbeat(), to: peer, router: router)
            session.lastSent = time
        }
    }

    @discardableResult
    private func send(_ message: MillMessage, to peer: Data, router: ZMQSocket) -> Bool {
        send(MillCodec.encode(message), to: peer, router: router)
    }

    private func send(_ frames: [Data], to peer: Data, router: ZMQSocket) -> Bool {
        do {
            return try router.send([peer] + frames, dontWait: true)
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
        try flushAndWait(router)
    }

    /// Lease tokens are this run's random prefix and the job counter (`1f3a9c0d-2b7`):
    /// unique across restarts (a new prefix each run) without a call to the kernel's
    /// random source per job. Eight hex digits, so that a token of the first 16.7 million
    /// jobs fits Swift's 15-byte small string: no allocation, and short to hash in the
    /// dictionaries every message goes through. A token only needs to tell this run's
    /// leases from an earlier run's (a result is also matched by job id and sender), and
    /// two runs draw the same prefix with a chance of one in four billion.
    private let tokenPrefix: String = {
        let random = String(UInt32.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 8 - random.count) + random + "-"
    }()

    func now() -> Double { Date().timeIntervalSince1970 }
}
