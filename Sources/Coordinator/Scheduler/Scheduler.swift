import Catalog
import Foundation
import Logging
import PhotomillCore

/// The coordinator's protocol logic, without sockets, threads or clocks: it takes events
/// (a worker's READY and later messages, a page of due work, a commit done, a tick, a
/// requeue signal, shutdown), each with the time, and returns the actions its service
/// carries out (send a JOB or an ACK, commit a batch, read a page, forget a peer).
/// protocols/PROTOCOL.md is the normative description; docs/architecture.md draws where
/// it sits. Tested alone, event by event, with a manual clock (Tests/CoordinatorTests).
///
/// Time comes in as a `ClockReading`: every deadline (leases, liveness, heartbeats, commit
/// and refill intervals) is measured on its monotonic part, so a step of the wall clock
/// moves none of them; the wall part only goes into what is written to the catalog.
struct Scheduler {
    let configuration: CoordinatorConfiguration
    let logger: Logger

    // Workers (Scheduler+Workers.swift)
    var sessions: [Data: WorkerSession] = [:]
    var departures = Departures()
    var violations = Violations()
    /// Leases expired and workers lost since the start (for `/metrics`).
    var counts = SchedulerCounts()
    /// Sessions whose catalog row is out of date, and rows of workers that left.
    var changedWorkers: Set<Data> = []
    var departed: [WorkerRow] = []
    /// Kinds some connected worker offers; the catalog is paged for these only.
    var available: Set<Kind> = []
    var recordedWaits: [Kind: String]?
    /// The shortest heartbeat interval of the connected workers (the configured one when
    /// none is): the loop must look that often.
    var shortestInterval: Double
    /// The slots of the connected workers together.
    var totalSlots = 0
    /// Sessions with free credit, longest waiting first: dispatch looks at those alone.
    var withCredit = CreditQueue()
    var heartbeats = HeartbeatSchedule()

    // Leases (Scheduler+Leases.swift)
    /// Jobs out, by lease token.
    var inFlight: [String: InFlight] = [:]
    /// Job id → lease token.
    var tokenForJob: [String: String] = [:]
    var tokens: LeaseTokens
    let startedAt: MonotonicInstant
    var nextLeaseCheck = MonotonicInstant.distantPast

    // Work (Scheduler+Dispatch.swift, Scheduler+Steering.swift)
    var queues: [TierQueue] = .perTier
    var requeueMark: Int64 = 0
    /// Kinds an operator paused: neither paged nor leased until resumed.
    var paused: [Kind: Pause] = [:]
    var nextSteeringCheck = MonotonicInstant.distantPast

    // Commits (Scheduler+Commits.swift)
    var batch = CommitBatch()
    var acks: [PendingAck] = []
    var lastFlush = MonotonicInstant.distantPast
    /// The leases of the batch the committer is writing; nil while it is idle.
    var committing: [Lease]?

    /// `run`: the id in this run's job ids and tokens, fixed by tests; random otherwise.
    init(configuration: CoordinatorConfiguration, logger: Logger, at now: ClockReading, run: String? = nil) {
        self.configuration = configuration
        self.logger = logger
        startedAt = now.monotonic
        tokens = LeaseTokens(run: run)
        shortestInterval = configuration.heartbeatInterval
    }

    /// The first actions: why each kind waits (no worker is connected yet).
    mutating func start() -> [SchedulerAction] {
        capabilitiesChanged()
    }

    /// Nothing queued, out or uncommitted: a run may end once the catalog agrees.
    var isIdle: Bool { queues.jobCount == 0 && inFlight.isEmpty && batch.results.isEmpty }

    /// Jobs out at workers (or inherited from a previous run).
    var hasJobsOut: Bool { !inFlight.isEmpty }

    /// How long the service may wait in `zmq_poll` before the next `tick`: a quarter of the
    /// shortest heartbeat interval, or less when a batch waits for its commit interval.
    func pollTimeout(at now: ClockReading) -> Int {
        var timeout: Double = Swift.min(configuration.heartbeatInterval, shortestInterval) / 4
        if !batch.isEmpty && committing == nil {
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
        if batch.results.count >= configuration.commitBatchSize || sinceFlush >= configuration.commitInterval {
            actions += flush(at: now)
        }
        if now.monotonic >= nextLeaseCheck {
            // Liveness and deadlines are whole seconds: ten looks a second suffice, where a
            // look per loop turn would walk every lease per message.
            nextLeaseCheck = now.monotonic + 0.1
            actions += checkLiveness(at: now)
            checkLeases(at: now)
        }
        actions += refill(at: now)
        return actions
    }

    /// Jobs of a tier paged in at most: the configured limit, or as many as the connected workers
    /// have slots, so that a thousand workers of four slots each are not left waiting on a
    /// queue of 1,024 (a job waits in it as a few dozen bytes and a path).
    var readyQueueLimit: Int { Swift.max(configuration.readyQueueLimit, totalSlots) }

    /// What was dropped as malformed or unexpected, by reason, since the start.
    var violationCounts: [String: Int] { violations.counts }

}
