import Catalog
import Foundation
import Logging
import PhotomillCore

// Leases: inherited at start, renewed by EXTEND, taken back when they expire.
extension Scheduler {
    /// Leases a previous coordinator granted, found in the catalog: their workers get
    /// `orphanGrace` seconds to come back (and re-send results) before they are released.
    /// Their stored wall-clock expiry becomes a deadline on the monotonic clock here.
    mutating func adopt(_ leases: [Lease], at now: ClockReading) {
        guard !leases.isEmpty else { return }
        for var lease in leases {
            let remaining = Swift.max(lease.expiresAt - now.wall, configuration.orphanGrace)
            lease.expiresAt = now.wall + remaining
            let jobID = InFlight.inheritedPrefix + lease.token.prefix(12)
            inFlight[lease.token] = InFlight(lease: lease, jobID: jobID, routingId: nil,
                                             grantedAt: now.monotonic - Swift.max(0, now.wall - lease.leasedAt),
                                             deadline: now.monotonic + remaining)
            tokenForJob[jobID] = lease.token
        }
        logger.info("found leases of a previous run; waiting for their workers", metadata: [
            "leases": "\(leases.count)", "grace.seconds": "\(Int(configuration.orphanGrace))",
        ])
    }

    /// EXTEND: moves the lease's deadline to `extra` from now, capped at `leaseCapFactor`
    /// times its longest kind's deadline from the grant, so that a job hung inside a worker
    /// whose socket thread still EXTENDs is taken back in the end.
    mutating func extend(jobID: String, token: String, extraSeconds: Double, from peer: Data, at now: ClockReading) {
        guard let held = tokenForJob[jobID], held == token, var flight = inFlight[token], flight.routingId == peer,
              let session = sessions[peer] else {
            guard !departures.holds(jobID, token: token), !isResend(token) else { return }
            reject(peer, reason: "unknown-job", detail: "EXTEND for a job it does not hold: " + jobID, at: now)
            return
        }
        // Taken back already: an honest worker still busy with it; its result will be stale.
        guard !flight.expired else { return }
        let longest = configuration.deadline(for: flight.lease.kinds)
        let cap = flight.grantedAt + configuration.leaseCapFactor * longest
        let extended = Swift.min(now.monotonic + extraSeconds + session.leaseGrace, cap)
        if extended > flight.deadline {
            flight.deadline = extended
            // The catalog keeps the expiry on the wall clock, for people and for the next run.
            flight.lease.expiresAt = now.wall + (extended - now.monotonic)
            inFlight[token] = flight
        }
        batch.extensions.append((token, flight.lease.expiresAt))
    }

    /// Inherited leases whose worker did not come back within the grace, and leases past
    /// their deadline, are released (an attempt each). An expired lease's job keeps its
    /// worker's slot until its late result comes.
    mutating func checkLeases(at now: ClockReading) {
        let graceOver: Bool = now.monotonic > startedAt + configuration.orphanGrace
        for (token, flight) in inFlight where !flight.expired {
            if flight.routingId == nil {
                // Its own deadline may be minutes away: it does not matter, nobody works on it.
                guard graceOver else { continue }
                inFlight[token] = nil
                tokenForJob[flight.jobID] = nil
                departures.remember(flight)
                batch.releases.append(Release(lease: flight.lease, reason: .workerLost,
                                              message: "worker \(flight.lease.worker) did not come back after a coordinator restart"))
                continue
            }
            guard now.monotonic > flight.deadline else { continue }
            logger.notice("a lease expired: the job is taken back", metadata: [
                "job.id": "\(flight.jobID)", "worker.id": "\(flight.lease.worker)", "photo.id": "\(flight.lease.photoId)",
                "kind": "\(Kind.list(flight.lease.kinds))",
            ])
            inFlight[token]?.expired = true
            counts.leaseExpirations += 1
            batch.releases.append(Release(lease: flight.lease, reason: .leaseExpired,
                                          message: "job ran past its deadline on worker \(flight.lease.worker)"))
        }
    }
}
