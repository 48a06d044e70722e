import Catalog
import Foundation
import Logging
import MillProtocol
import PhotomillCore

// Workers coming, talking and going.
extension Scheduler {
    /// A READY. `keyAllowed`: false when CURVE admitted the key at the handshake but the
    /// allow-list no longer has it.
    mutating func ready(_ hello: WorkerHello, from peer: Data, key: String?, keyAllowed: Bool,
                        at now: ClockReading) -> [SchedulerAction] {
        guard keyAllowed else {
            reject(peer, reason: "key-not-allowed", detail: "READY from a key no longer in the allow-list", at: now)
            return [.send(.disconnect(reason: "key not allowed"), to: peer)]
        }
        guard hello.protocolVersion >= MillWire.minimumWorkerProtocolVersion else {
            let detail = "worker \(hello.workerId) on \(hello.host) speaks protocol revision \(hello.protocolVersion); "
                + "this coordinator needs \(MillWire.minimumWorkerProtocolVersion) (JOBS and RESULTS, many jobs a message): upgrade photomill there"
            reject(peer, reason: "old-protocol", detail: detail, at: now)
            return [.send(.disconnect(reason: detail), to: peer)]
        }
        if sessions[peer] != nil {
            reject(peer, reason: "duplicate-ready", detail: "READY twice on one connection", at: now)
            return []
        }
        // The same worker on a new connection: its jobs are still running there and their
        // results will come on this connection, so its leases move with it.
        if let old = sessions.first(where: { $0.value.workerId == hello.workerId })?.key {
            totalSlots -= sessions[old]?.slots ?? 0
            sessions[old] = nil
            withCredit.remove(old)
        }
        let session = WorkerSession(routingId: peer, hello: hello, publicKey: key, at: now)
        for (token, var flight) in inFlight where flight.lease.worker == hello.workerId {
            flight.routingId = peer
            inFlight[token] = flight
            session.holding.insert(token)
        }
        sessions[peer] = session
        totalSlots += session.slots
        creditChanged(session)
        // Due at once: READY is answered in this turn (PROTOCOL.md, READY).
        heartbeats.schedule(session, at: now.monotonic)
        changedWorkers.insert(peer)
        logger.info("worker ready", metadata: [
            "worker.id": "\(session.workerId)", "worker.host": "\(session.host)", "worker.slots": "\(session.slots)",
            "worker.kinds": "\(Kind.list(session.kinds))",
            "worker.files": "\(session.pathRoots.isEmpty ? "as bytes" : session.pathRoots.joined(separator: ","))",
        ])
        return capabilitiesChanged()
    }

    /// Any message after READY from `peer`.
    mutating func received(_ message: WorkerMessage, from peer: Data, at now: ClockReading) -> [SchedulerAction] {
        guard let session = sessions[peer] else {
            // A worker of a previous coordinator (libzmq reconnects its socket by itself and
            // delivers what it queued), one taken for dead, or a stranger: ask it to start
            // over with READY, which makes it re-send anything un-ACKed. A conforming worker
            // cannot avoid this after a restart, so it is no violation (PROTOCOL.md).
            if case .disconnect = message { return [] }
            return [.send(.disconnect(reason: Self.startOver), to: peer)]
        }
        session.heard(at: now)
        switch message {
        case .result(let jobID, let token, let reports):
            result(jobID: jobID, token: token, reports: reports, from: session, at: now)
        case .fail(let jobID, let token, let errorClass, let text, let retryable):
            fail(jobID: jobID, token: token, errorClass: errorClass, message: text, retryable: retryable, from: session, at: now)
        case .extend(let jobID, let token, let extra):
            extend(jobID: jobID, token: token, extraSeconds: extra, from: peer, at: now)
        case .heartbeat:
            break
        case .disconnect:
            logger.info("worker disconnected", metadata: ["worker.id": "\(session.workerId)"])
            return drop(peer, reason: .shutdown, message: "worker " + session.workerId + " stopped")
        case .unexpected(let command):
            reject(peer, reason: "unexpected-command", detail: "\(command) is not sent to the coordinator", at: now)
        }
        return []
    }

    /// PROTOCOL.md's reason for a message from a connection with no registered worker.
    static let startOver = "not registered"

    /// A message that failed to decode (or a peer's READY to a key no longer allowed):
    /// counted by reason, logged at most once per peer a minute.
    mutating func reject(_ peer: Data, reason: String, detail: String, at now: ClockReading) {
        violations.record(reason, from: peer, detail: detail, logger: logger, at: now.monotonic)
    }

    /// After an allow-list reload: workers whose key was removed are told to go and lose
    /// their leases; their reconnection then fails the handshake.
    mutating func allowListChanged(allows: (String) -> Bool, at now: ClockReading) -> [SchedulerAction] {
        var actions: [SchedulerAction] = []
        for (peer, session) in sessions {
            guard let key = session.publicKey, !allows(key) else { continue }
            logger.warning("a worker's key was removed from the allow-list: disconnecting it",
                           metadata: ["worker.id": "\(session.workerId)", "worker.host": "\(session.host)"])
            actions.append(.send(.disconnect(reason: "key not allowed"), to: peer))
            actions += drop(peer, reason: .workerLost, message: "worker \(session.workerId): key removed from the allow-list")
        }
        return actions
    }

    /// Workers silent for `liveness` intervals are dropped; rows of the others are marked
    /// for the next commit once a heartbeat interval passed since they were last written
    /// (`status` shows each worker's last heartbeat from the catalog).
    mutating func checkLiveness(at now: ClockReading) -> [SchedulerAction] {
        var actions: [SchedulerAction] = []
        for (peer, session) in sessions {
            let limit = Double(configuration.liveness) * session.heartbeatInterval
            let silence: Double = now.monotonic - session.lastSeen
            if session.lastSeen - session.lastRecorded >= configuration.heartbeatInterval { changedWorkers.insert(peer) }
            guard silence > limit else { continue }
            let seconds = String(format: "%.1f", silence)
            let message = "worker \(session.workerId) on \(session.host) stopped answering (no message for \(seconds) s)"
            logger.warning("worker stopped answering: releasing its jobs", metadata: [
                "worker.id": "\(session.workerId)", "worker.host": "\(session.host)", "silence.seconds": "\(seconds)",
                "jobs": "\(session.holding.count)",
            ])
            actions += drop(peer, reason: .workerLost, message: message)
        }
        return actions
    }

    /// Forgets a worker and takes back every lease it held.
    mutating func drop(_ peer: Data, reason: Release.Reason, message: String) -> [SchedulerAction] {
        guard let session = sessions.removeValue(forKey: peer) else { return [] }
        if reason == .workerLost { counts.workersLost += 1 }
        totalSlots -= session.slots
        withCredit.remove(peer)
        for token in session.holding {
            guard let flight = inFlight.removeValue(forKey: token) else { continue }
            tokenForJob[flight.jobID] = nil
            if !flight.expired { batch.releases.append(Release(lease: flight.lease, reason: reason, message: message)) }
            if reason == .workerLost { departures.remember(flight) }
        }
        changedWorkers.remove(peer)
        var row = session.row(state: .gone)
        row.inFlight = 0
        departed.append(row)
        return capabilitiesChanged()
    }

    /// The connected workers changed (or what is paused): page only the kinds someone can
    /// take and nobody paused, and record why the others wait.
    mutating func capabilitiesChanged() -> [SchedulerAction] {
        var actions: [SchedulerAction] = []
        shortestInterval = sessions.values.map(\.heartbeatInterval).min() ?? configuration.heartbeatInterval
        let language = configuration.parameters.ocrLanguage
        let offered = Routing.available(sessions.values, ocrLanguage: language)
        let waits = Routing.waiting(kinds: configuration.kinds, sessions: sessions.values, ocrLanguage: language)
        if waits != recordedWaits {
            actions.append(.recordWaits(waits))
            recordedWaits = waits
        }
        setAvailable(offered.subtracting(paused.keys))
        return actions
    }

    /// `.recordWaits` could not be written: the next change writes again.
    mutating func waitsNotRecorded() {
        recordedWaits = nil
    }
}
