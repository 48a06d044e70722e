import Catalog
import Foundation
import PhotomillCore

/// Workers the coordinator took for dead and the jobs it took back from them, remembered
/// so that a worker that was only frozen, or a job that was only slow, is recognised when
/// it comes back: its late RESULT or FAIL is recorded as a `stale` attempt and ACKed as
/// discarded, and a message on its old connection is answered with DISCONNECT, neither
/// counted as a protocol violation. Bounded: the oldest are forgotten first; a forgotten
/// one is then only counted as `unknown-job` or `unknown-peer`, which loses nothing.
struct Departures {
    private var jobs: [String: InFlight] = [:]
    private var jobOrder: [String] = []
    private var peers: Set<Data> = []
    private var peerOrder: [Data] = []
    let capacity: Int

    init(capacity: Int = 65_536) { self.capacity = capacity }

    mutating func remember(_ flight: InFlight) {
        jobs[flight.jobID] = flight
        jobOrder.append(flight.jobID)
        if jobOrder.count > capacity * 2 {
            for id in jobOrder.prefix(capacity) { jobs[id] = nil }
            jobOrder.removeFirst(capacity)
        }
    }

    mutating func remember(peer: Data) {
        guard peers.insert(peer).inserted else { return }
        peerOrder.append(peer)
        if peerOrder.count > capacity * 2 {
            for id in peerOrder.prefix(capacity) { peers.remove(id) }
            peerOrder.removeFirst(capacity)
        }
    }

    func knows(peer: Data) -> Bool { peers.contains(peer) }

    func holds(_ jobID: String, token: String) -> Bool { jobs[jobID]?.lease.token == token }

    /// The released job `jobID`, if its token is `token`; forgotten once taken.
    mutating func take(_ jobID: String, token: String) -> InFlight? {
        guard let flight = jobs[jobID], flight.lease.token == token else { return nil }
        jobs[jobID] = nil
        return flight
    }
}
