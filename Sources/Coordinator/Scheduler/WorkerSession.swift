import Catalog
import Foundation
import PhotomillCore

/// The scheduler's view of one connected worker (one ROUTER peer). A class: the scheduler
/// changes a session on every message, in place, without copying its `holding` set.
final class WorkerSession {
    let routingId: Data
    let workerId: String
    let host: String
    let slots: Int
    let kinds: Set<Kind>
    let ocrLanguages: Set<String>
    /// Path prefixes (the coordinator's namespace) it reads itself; other files travel as bytes.
    let pathRoots: [String]
    /// The CURVE key it connected with (nil without CURVE).
    let publicKey: String?
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
        slots = hello.slots
        kinds = hello.kinds
        ocrLanguages = hello.ocrLanguages
        pathRoots = hello.pathRoots
        self.publicKey = publicKey
        connectedAt = now.wall
        lastSeen = now.monotonic
        lastSeenWall = now.wall
        // Never: the first loop turn answers READY with a HEARTBEAT (PROTOCOL.md, READY).
        lastSent = .distantPast
    }

    var credit: Int { slots - holding.count }

    func heard(at now: ClockReading) {
        lastSeen = now.monotonic
        lastSeenWall = now.wall
    }

    func row(state: WorkerRow.State) -> WorkerRow {
        WorkerRow(id: workerId, host: host, slots: slots, kinds: Kind.list(kinds),
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

/// Job ids and lease tokens: this run's random prefix and a job counter (`1f3a9c0d-2b7`).
/// Unique across restarts (a new prefix each run) without a call to the kernel's random
/// source per job. Eight hex digits, so that a token of the first 16.7 million jobs fits
/// Swift's 15-byte small string: no allocation, and short to hash in the dictionaries every
/// message goes through. A token only needs to tell this run's leases from an earlier
/// run's (a result is also matched by job id and sender), and two runs draw the same
/// prefix with a chance of one in four billion.
struct LeaseTokens {
    private let prefix: String
    private var counter = 0

    init(prefix: String? = nil) {
        self.prefix = prefix ?? {
            let random = String(UInt32.random(in: .min ... .max), radix: 16)
            return String(repeating: "0", count: 8 - random.count) + random + "-"
        }()
    }

    mutating func next(photoId: Int64) -> (jobID: String, token: String) {
        counter += 1
        return ("\(photoId).\(counter)", prefix + String(counter, radix: 16))
    }
}
