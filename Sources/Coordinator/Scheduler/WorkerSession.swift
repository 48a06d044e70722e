import Catalog
import Foundation
import PhotomillCore

/// The scheduler's view of one connected worker (one ROUTER peer). A class: the scheduler
/// changes a session on every message, in place, without copying its `holding` set.
final class WorkerSession {
    let routingId: Data
    let workerId: String
    let host: String
    let softwareVersion: String
    /// Credits (READY.slots).
    let slots: Int
    /// The jobs it works on at once, as its operator gave them: `slots` less what it only
    /// holds ahead (READY.prefetch). For people (`status`, metrics); credits use `slots`.
    let workingSlots: Int
    let kinds: Set<Kind>
    let ocrLanguages: Set<String>
    /// Path prefixes (the coordinator's namespace) it reads itself; other files travel as bytes.
    let pathRoots: [String]
    /// The CURVE key it connected with (nil without CURVE).
    let publicKey: String?
    /// Seconds, from its READY: the coordinator heartbeats it at this interval and takes it
    /// for dead after `liveness` of them in silence.
    let heartbeatInterval: Double
    /// Wall-clock, for the catalog's `workers` row.
    let connectedAt: Double
    var lastSeen: MonotonicInstant
    /// `lastSeen` on the wall clock, for the catalog's `workers` row.
    var lastSeenWall: Double
    var lastSent: MonotonicInstant
    /// `lastSeen` as last written to the catalog.
    var lastRecorded = MonotonicInstant.distantPast
    /// Lease tokens of jobs it holds (expired ones included: they occupy a slot until the
    /// worker reports them).
    var holding: Set<String> = []
    var done = 0
    var failed = 0

    init(routingId: Data, hello: WorkerHello, publicKey: String?, at now: ClockReading) {
        self.routingId = routingId
        workerId = hello.workerId
        host = hello.host
        softwareVersion = hello.softwareVersion
        slots = hello.slots
        workingSlots = max(1, hello.slots - hello.prefetch)
        kinds = hello.kinds
        ocrLanguages = hello.ocrLanguages
        pathRoots = hello.pathRoots
        self.publicKey = publicKey
        heartbeatInterval = hello.heartbeatInterval
        connectedAt = now.wall
        lastSeen = now.monotonic
        lastSeenWall = now.wall
        // Never: the first loop turn answers READY with a HEARTBEAT (PROTOCOL.md, READY).
        lastSent = .distantPast
    }

    var credit: Int { slots - holding.count }

    /// What a lease granted to this worker adds to its deadline for transit: two
    /// heartbeat intervals (PROTOCOL.md, "Leases and deadlines").
    var leaseGrace: Double { 2 * heartbeatInterval }

    func heard(at now: ClockReading) {
        lastSeen = now.monotonic
        lastSeenWall = now.wall
    }

    func row(state: WorkerRow.State) -> WorkerRow {
        WorkerRow(id: workerId, host: host, softwareVersion: softwareVersion, slots: workingSlots, kinds: Kind.list(kinds),
                  ocrLanguages: ocrLanguages.sorted().joined(separator: ","), state: state,
                  connectedAt: connectedAt, lastSeen: lastSeenWall, inFlight: holding.count, done: done, failed: failed)
    }
}

/// A job out at a worker (or, after a restart, a lease found in the catalog).
struct InFlight {
    /// As the catalog records it (wall-clock times).
    var lease: Lease
    let jobID: String
    /// Nil for a lease inherited from a previous coordinator, until its worker is back.
    var routingId: Data?
    var expired = false
    let grantedAt: MonotonicInstant
    /// When the lease expires unless EXTENDed.
    var deadline: MonotonicInstant

    static let inheritedPrefix = "restart-"
    /// Found in the catalog at start: its worker knows it by another job id.
    var inherited: Bool { jobID.hasPrefix(Self.inheritedPrefix) }
}

/// Job ids and lease tokens: this run's random id and a job counter, in hex — job
/// `1f3a9c0d.2b7`, token `1f3a9c0d-2b7`. Both unique across coordinator restarts (a new
/// run id each start; PROTOCOL.md: a worker may key its jobs by id, and an ACK names job
/// ids), without a call to the kernel's random source per job. Eight hex digits, so that
/// either of the first 16.7 million jobs fits Swift's 15-byte small string: no allocation,
/// and short to hash in the dictionaries every message goes through. Two runs draw the
/// same id with a chance of one in four billion.
///
/// The scheduler also asks it which tokens it could have issued: a RESULT, FAIL or EXTEND
/// under a token of an earlier run, or of this run's settled jobs, is what a conforming
/// worker re-sends after a restart or a lost ACK, never a violation; one under a token no
/// photomill coordinator issues, or one this run has not issued yet, is.
struct LeaseTokens {
    private let run: String
    private var counter = 0

    /// `run`: fixed by tests; eight random hex digits otherwise.
    init(run: String? = nil) {
        self.run = run ?? {
            let random = String(UInt32.random(in: .min ... .max), radix: 16)
            return String(repeating: "0", count: 8 - random.count) + random
        }()
    }

    mutating func next() -> (jobID: String, token: String) {
        counter += 1
        let count = String(counter, radix: 16)
        return (run + "." + count, run + "-" + count)
    }

    /// Whether some photomill coordinator run could have issued `token`: RUN-COUNTER, the
    /// counter in hex, and, for this run, no higher than the jobs granted so far.
    func couldHaveIssued(_ token: String) -> Bool {
        guard let dash = token.lastIndex(of: "-"), dash != token.startIndex,
              let count = Int(token[token.index(after: dash)...], radix: 16), count > 0 else { return false }
        return token[..<dash] != run || count <= counter
    }
}
