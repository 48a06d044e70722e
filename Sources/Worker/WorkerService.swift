import Foundation
import Logging
import MillProtocol
import PhotoProcessing
import PhotomillCore
import SwiftProtobuf
import ZeroMQ

/// A photomill worker: one DEALER connection to the coordinator, owned by the thread
/// that calls `run()`, and `slots` threads of its own that process photos.
///
/// The protocol is protocols/PROTOCOL.md: READY with its slots and capabilities, then
/// JOBs in, RESULTs out; HEARTBEAT when idle; if the coordinator is silent for
/// `liveness` intervals, a new connection after a backoff of 1 s doubling to 32 s,
/// READY again and every un-ACKed result sent again.
public final class WorkerService: @unchecked Sendable {
    // @unchecked: `stopping` is guarded by `lock`; everything else is touched only by the
    // thread inside `run()` (the socket's owner) or is itself thread-safe (`queue`).
    public let configuration: WorkerConfiguration
    private let logger: Logger
    private let lock = NSLock()
    private var stopping = false
    private let queue = JobQueue<Work, Done>()
    private let wakeEndpoint = "inproc://photomill-worker-wake-\(UUID().uuidString)"

    struct Work {
        let job: Photomill_V1_Job
        let blobs: [Data]
    }

    struct Done {
        let jobID: String
        let frames: [Data]
    }

    /// A sent RESULT the coordinator has not acknowledged yet.
    private struct Unacknowledged {
        let frames: [Data]
        var sentAt: Double
    }

    /// A job a slot is working on, for EXTEND.
    private struct Running {
        let token: String
        let kinds: [Photomill_V1_Kind]
        let deadline: Double
        var since: Double
    }

    private var unacknowledged: [String: Unacknowledged] = [:]
    private var unacknowledgedOrder: [String] = []
    private var running: [String: Running] = [:]
    /// FAILs for JOBs that arrived while draining, sent by the socket's owner.
    private var refusals: [MillMessage] = []
    private var violations: [String: Int] = [:]
    private var lastViolationLog = 0.0

    public init(configuration: WorkerConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Asks `run()` to finish the jobs in hand, deliver their results and return.
    public func stop() {
        lock.lock()
        stopping = true
        lock.unlock()
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    /// Runs until `stop()`; the calling thread becomes the socket's owner.
    public func run() throws(ZMQError) {
        let context = try ZMQContext()
        let wake = try ZMQSocket(context: context, type: .pull)
        try wake.bind(wakeEndpoint)
        let slotThreads = startSlots(context: context)
        defer {
            queue.close()
            for thread in slotThreads { while !thread.isFinished { usleep(1000) } }
            wake.close()
        }
        var backoff = configuration.reconnectInitial
        var attempt = 0
        while !isStopping {
            attempt += 1
            let socket = try connect(context: context, attempt: attempt)
            let reason = try serve(socket, wake: wake, backoff: &backoff)
            if reason == .stopped {
                finish(on: socket, wake: wake)
                socket.close()
                return
            }
            socket.close()
            let hint = reason == .silent && configuration.security != nil
                ? " (with CURVE, silence can also mean a wrong --server-key, or this worker's key missing from the coordinator's allow-list)" : ""
            logger.warning("coordinator \(configuration.endpoint) \(reason.rawValue)\(hint); reconnecting in \(backoff) s")
            waitOut(backoff, wake: wake)
            backoff = min(backoff * 2, configuration.reconnectMax)
        }
    }

    private enum EndOfSession: String {
        case stopped
        case silent = "is silent"
        case disconnected = "asked us to reconnect"
    }

    private func connect(context: ZMQContext, attempt: Int) throws(ZMQError) -> ZMQSocket {
        let socket = try ZMQSocket(context: context, type: .dealer)
        // A new routing id per connection: the coordinator's ROUTER would refuse a second
        // connection under an id it still holds.
        try socket.set(.routingId, to: Data("\(configuration.workerId)#\(attempt)".utf8))
        try socket.set(.linger, to: 0)
        try socket.set(.maxMessageSize, to: Int64(Limits.default.maxFrameBytes))
        socket.maxFrames = Limits.default.maxFrames
        if let security = configuration.security {
            try socket.set(.curveServerKey, to: security.serverKey)
            try socket.set(.curvePublicKey, to: security.publicKey)
            try socket.set(.curveSecretKey, to: security.secretKey)
        }
        try socket.connect(configuration.endpoint)
        send(.ready(readyMessage()), on: socket)
        return socket
    }

    private func readyMessage() -> Photomill_V1_Ready {
        .with {
            $0.workerID = configuration.workerId
            $0.host = configuration.host
            $0.softwareVersion = PhotomillVersion.software
            $0.protocolVersion = MillWire.protocolVersion
            $0.slots = UInt32(configuration.slots)
            $0.kinds = configuration.kinds.sorted().map(Photomill_V1_Kind.init)
            $0.ocrLanguages = configuration.kinds.contains(.ocr) ? configuration.ocrLanguages : []
            $0.pathRoots = configuration.advertisedRoots
            $0.heartbeatIntervalMs = UInt32(configuration.heartbeatInterval * 1000)
        }
    }

    /// One connection's life: returns why it ended.
    private func serve(_ socket: ZMQSocket, wake: ZMQSocket, backoff: inout Double) throws(ZMQError) -> EndOfSession {
        var poller = Poller()
        _ = poller.register(socket)
        _ = poller.register(wake)
        let interval = configuration.heartbeatInterval
        var lastHeard = now()
        var lastSent = now()
        // What the previous connection left unacknowledged goes out again.
        for id in unacknowledgedOrder {
            guard var entry = unacknowledged[id] else { continue }
            if send(entry.frames, on: socket) { entry.sentAt = now(); unacknowledged[id] = entry }
        }
        while !isStopping {
            // Short enough that stop() is noticed quickly.
            let ready = try poller.poll(timeoutMilliseconds: min(100, Int(interval * 1000 / 4)))
            for item in ready {
                if item.index == 1 {
                    drain(wake)
                    if sendFinished(on: socket) { lastSent = now() }
                }
                if item.index == 0 {
                    while let frames = try socket.receive(dontWait: true) {
                        lastHeard = now()
                        backoff = configuration.reconnectInitial
                        if handle(frames) == .disconnected { return .disconnected }
                    }
                }
            }
            let time = now()
            if time - lastSent >= interval {
                send(.heartbeat(), on: socket)
                lastSent = time
            }
            if extendLongJobs(on: socket, at: time) { lastSent = time }
            resendOverdue(on: socket, at: time)
            if time - lastHeard > Double(configuration.liveness) * interval { return .silent }
        }
        return .stopped
    }

    private enum Handled { case ok, disconnected }

    private func handle(_ frames: [Data]) -> Handled {
        let message: MillMessage
        do {
            message = try MillCodec.decode(frames)
        } catch {
            countViolation(error.reason.rawValue, error.description)
            return .ok
        }
        switch message {
        case .job(let job, let blobs):
            // A draining worker takes no new work (PROTOCOL.md, "Shutdown").
            guard !isStopping else {
                refusals.append(.fail(.with {
                    $0.jobID = job.jobID
                    $0.leaseToken = job.leaseToken
                    $0.errorClass = "shutting-down"
                    $0.message = "worker \(configuration.workerId) is stopping"
                    $0.retryable = true
                }))
                return .ok
            }
            let deadlineMs = job.deadlines.map(\.deadlineMs).max() ?? 60_000
            running[job.jobID] = Running(token: job.leaseToken, kinds: job.kinds,
                                         deadline: Double(deadlineMs) / 1000, since: now())
            queue.push(Work(job: job, blobs: blobs))
        case .ack(let ack):
            for id in ack.committed + ack.discarded { unacknowledged[id] = nil }
            unacknowledgedOrder.removeAll { unacknowledged[$0] == nil }
        case .disconnect(let body):
            logger.info("coordinator says: \(body.reason)")
            return .disconnected
        case .heartbeat:
            break
        case .ready, .extend, .result, .fail:
            countViolation("unexpected-command", "\(message.command) is not sent to workers")
        }
        return .ok
    }

    /// Sends the RESULTs slot threads have finished. Returns whether anything was sent.
    @discardableResult
    private func sendFinished(on socket: ZMQSocket?) -> Bool {
        // Drain the wake-up notes; the results themselves are in the queue.
        var sent = false
        for done in queue.takeOutcomes() {
            running[done.jobID] = nil
            unacknowledged[done.jobID] = Unacknowledged(frames: done.frames, sentAt: now())
            unacknowledgedOrder.append(done.jobID)
            if let socket { sent = send(done.frames, on: socket) || sent }
        }
        return sent
    }

    /// EXTEND for jobs past half their deadline, so a slow OCR is not taken away.
    private func extendLongJobs(on socket: ZMQSocket, at time: Double) -> Bool {
        var sent = false
        for (id, job) in running where time - job.since > job.deadline / 2 {
            let extend = Photomill_V1_Extend.with {
                $0.jobID = id
                $0.leaseToken = job.token
                $0.kinds = job.kinds
                $0.extraMs = UInt32(job.deadline * 1000)
            }
            sent = send(.extend(extend), on: socket) || sent
            running[id]?.since = time
        }
        return sent
    }

    /// A RESULT whose ACK is long overdue (lost in a full queue) goes out again; the
    /// coordinator acknowledges duplicates as discarded.
    private func resendOverdue(on socket: ZMQSocket, at time: Double) {
        let overdue = 10 * configuration.heartbeatInterval
        for id in unacknowledgedOrder {
            guard var entry = unacknowledged[id], time - entry.sentAt > overdue else { continue }
            if send(entry.frames, on: socket) { entry.sentAt = time; unacknowledged[id] = entry }
        }
    }

    /// Between connections: keeps collecting finished results so nothing is lost.
    private func waitOut(_ seconds: Double, wake: ZMQSocket) {
        let until = now() + seconds
        var poller = Poller()
        _ = poller.register(wake)
        while now() < until && !isStopping {
            _ = try? poller.poll(timeoutMilliseconds: 100)
            drain(wake)
            sendFinished(on: nil)
        }
    }

    /// After `stop()`: the slots finish the jobs in hand; their results go out, and the
    /// worker waits briefly for the ACKs before saying DISCONNECT.
    private func finish(on socket: ZMQSocket, wake: ZMQSocket) {
        queue.close()
        let deadline = now() + 30
        var poller = Poller()
        _ = poller.register(socket)
        _ = poller.register(wake)
        while now() < deadline && (!running.isEmpty || !unacknowledged.isEmpty) {
            let ready = (try? poller.poll(timeoutMilliseconds: 100)) ?? []
            for item in ready {
                if item.index == 1 {
                    drain(wake)
                    sendFinished(on: socket)
                }
                if item.index == 0 {
                    while let frames = try? socket.receive(dontWait: true) { _ = handle(frames) }
                    for refusal in refusals { send(refusal, on: socket) }
                    refusals.removeAll()
                }
            }
        }
        send(.disconnect(.with { $0.reason = "worker stopping" }), on: socket)
        if !unacknowledged.isEmpty {
            logger.warning("stopping with \(unacknowledged.count) results not acknowledged; the coordinator will re-lease them")
        }
    }

    private func drain(_ wake: ZMQSocket) {
        while (try? wake.receive(dontWait: true)) ?? nil != nil {}
    }

    private func startSlots(context: ZMQContext) -> [Thread] {
        (0..<configuration.slots).map { index in
            let thread = Thread { [queue, configuration, wakeEndpoint, logger] in
                let runner = JobRunner(configuration: configuration)
                let notify = try? ZMQSocket(context: context, type: .push)
                try? notify?.connect(wakeEndpoint)
                defer { notify?.close() }
                while let work = queue.next() {
                    let (result, blobs) = runner.run(work.job, blobs: work.blobs)
                    queue.deliver(Done(jobID: work.job.jobID, frames: MillCodec.encode(.result(result, blobs: blobs))))
                    do {
                        _ = try notify?.send([Data([1])], dontWait: false)
                    } catch {
                        logger.error("slot \(index): cannot wake the socket thread: \(error)")
                    }
                }
            }
            thread.name = "photomill-slot-\(index)"
            thread.stackSize = 8 << 20
            thread.start()
            return thread
        }
    }

    @discardableResult
    private func send(_ message: MillMessage, on socket: ZMQSocket) -> Bool {
        send(MillCodec.encode(message), on: socket)
    }

    @discardableResult
    private func send(_ frames: [Data], on socket: ZMQSocket) -> Bool {
        do {
            return try socket.send(frames, dontWait: true)
        } catch {
            logger.warning("send to \(configuration.endpoint) failed: \(error)")
            return false
        }
    }

    private func countViolation(_ reason: String, _ detail: String) {
        violations[reason, default: 0] += 1
        let time = now()
        if time - lastViolationLog > 60 {
            lastViolationLog = time
            logger.warning("dropped a malformed message from the coordinator (\(reason)): \(detail)")
        }
    }
}

func now() -> Double { Date().timeIntervalSince1970 }
