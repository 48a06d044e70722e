import Catalog
import Foundation
import PhotomillCore

/// The coordinator's view of one connected worker (one ROUTER peer). A class: the loop
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
    let connectedAt: Double
    var lastSeen: Double
    var lastSent: Double
    /// `lastSeen` as last written to the catalog.
    var lastRecorded = 0.0
    /// Lease tokens of jobs it holds (expired ones included: they occupy a slot until the
    /// worker reports them).
    var holding: Set<String> = []
    var done = 0
    var failed = 0

    init(routingId: Data, workerId: String, host: String, slots: Int, kinds: Set<Kind>, ocrLanguages: Set<String>,
         pathRoots: [String], publicKey: String?, connectedAt: Double, lastSeen: Double, lastSent: Double) {
        self.routingId = routingId
        self.workerId = workerId
        self.host = host
        self.slots = slots
        self.kinds = kinds
        self.ocrLanguages = ocrLanguages
        self.pathRoots = pathRoots
        self.publicKey = publicKey
        self.connectedAt = connectedAt
        self.lastSeen = lastSeen
        self.lastSent = lastSent
    }

    var credit: Int { slots - holding.count }

    func row(state: String) -> WorkerRow {
        WorkerRow(id: workerId, host: host, slots: slots, kinds: kinds.sorted().map(\.rawValue).joined(separator: ","),
                  ocrLanguages: ocrLanguages.sorted().joined(separator: ","), state: state,
                  connectedAt: connectedAt, lastSeen: lastSeen, inFlight: holding.count, done: done, failed: failed)
    }
}

/// A job out at a worker (or, after a restart, a lease found in the catalog).
struct InFlight {
    var lease: Lease
    let jobID: String
    /// Nil for a lease inherited from a previous coordinator, until its worker is back.
    var routingId: Data?
    var expired = false

    static let inheritedPrefix = "restart-"
    /// Found in the catalog at start: its worker knows it by another job id.
    var inherited: Bool { jobID.hasPrefix(Self.inheritedPrefix) }
}
