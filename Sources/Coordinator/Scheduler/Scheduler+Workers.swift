//===----------------------------------------------------------------------===//
//
// This source file is part of the photomill open source project
//
// Copyright (c) 2026 the photomill authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import MillProtocol
import PhotomillCore

// Workers coming, talking and going.
extension Scheduler {
    /// A READY. `keyAllowed`: false when CURVE admitted the key at the handshake but the
    /// allow-list no longer has it.
    mutating func ready(
        _ hello: WorkerHello,
        from peer: Data,
        key: String?,
        keyAllowed: Bool,
        at now: ClockReading
    ) -> [SchedulerAction] {
        guard state == .running else { return [.send(.disconnect(DisconnectReason(.coordinatorStopping)), to: peer)] }
        guard keyAllowed else {
            return reject(peer, .keyNotAllowed, detail: "READY from a key no longer in the allow-list", at: now)
                + [.send(.disconnect(DisconnectReason(.keyNotAllowed)), to: peer)]
        }
        guard hello.protocolVersion >= MillWire.minimumWorkerProtocolVersion else {
            let detail =
                "worker \(hello.workerId) on \(hello.host) speaks protocol revision \(hello.protocolVersion); "
                + "this coordinator needs \(MillWire.minimumWorkerProtocolVersion) (JOBS and RESULTS, many jobs a message): upgrade photomill there"
            return reject(peer, .oldProtocol, detail: detail, at: now) + [
                .send(.disconnect(DisconnectReason(.oldProtocol, detail)), to: peer)
            ]
        }
        if workers[peer] != nil {
            return reject(peer, .duplicateReady, detail: "READY twice on one connection", at: now)
        }
        // The same worker on a new connection: its jobs are still running there and their
        // results will come on this connection, so its leases move with it.
        if let old = workers.peer(ofWorker: hello.workerId) { workers.remove(old) }
        let session = WorkerSession(routingId: peer, hello: hello, publicKey: key, at: now)
        leases.attach(worker: hello.workerId, to: peer)
        workers.register(session, at: now.monotonic)
        workers.credit(session, is: credit(of: session))
        return [
            .log(
                .workerReady(
                    id: session.workerId,
                    host: session.host,
                    slots: session.slots,
                    kinds: session.kinds,
                    pathRoots: session.pathRoots
                )
            )
        ]
            + capabilitiesChanged()
    }

    /// Any message after READY from `peer`.
    mutating func received(_ message: WorkerMessage, from peer: Data, at now: ClockReading) -> [SchedulerAction] {
        guard let session = workers[peer] else {
            // A worker of a previous coordinator (libzmq reconnects its socket by itself and
            // delivers what it queued), one taken for dead, or a stranger: ask it to start
            // over with READY, which makes it re-send anything un-ACKed. A conforming worker
            // cannot avoid this after a restart, so it is no violation (PROTOCOL.md).
            if case .disconnect = message { return [] }
            return [
                .log(.notRegistered(peer: peer, command: message.command)),
                .send(.disconnect(DisconnectReason(.notRegistered)), to: peer),
            ]
        }
        session.heard(at: now)
        switch message {
        case .result(let jobID, let token, let reports):
            return result(jobID: jobID, token: token, reports: reports, from: session, at: now)
        case .fail(let jobID, let token, let errorClass, let text, let retryable):
            return fail(
                jobID: jobID,
                token: token,
                errorClass: errorClass,
                message: text,
                retryable: retryable,
                from: session,
                at: now
            )
        case .extend(let jobID, let token, let extra):
            return extend(jobID: jobID, token: token, extraSeconds: extra, from: peer, at: now)
        case .heartbeat:
            return []
        case .disconnect:
            return [.log(.workerDisconnected(id: session.workerId))]
                + drop(peer, reason: .shutdown, message: "worker " + session.workerId + " stopped")
        case .unexpected(let command):
            return reject(peer, .unexpectedCommand, detail: "\(command) is not sent to the coordinator", at: now)
        }
    }

    /// A message that failed to decode: dropped and counted. A READY with a field outside
    /// its rules is also answered, DISCONNECT `invalid-field` naming the field: its sender
    /// would otherwise wait for an answer that never comes (PROTOCOL.md, READY).
    mutating func undecodable(
        _ violation: ProtocolViolation,
        from peer: Data,
        at now: ClockReading
    ) -> [SchedulerAction] {
        let actions = reject(peer, violation.reason, detail: violation.description, at: now)
        guard violation.command == .ready, violation.reason == .invalidField else { return actions }
        let prefix = "\(Command.ready)."
        let text =
            violation.message.hasPrefix(prefix) ? String(violation.message.dropFirst(prefix.count)) : violation.message
        return actions + [.send(.disconnect(DisconnectReason(.invalidField, text)), to: peer)]
    }

    /// A message dropped as a protocol violation (one that failed to decode, a READY to a
    /// key no longer allowed, …): counted by reason, logged at most once per peer a minute.
    mutating func reject(
        _ peer: Data,
        _ reason: ProtocolViolation.Reason,
        detail: String,
        at now: ClockReading
    ) -> [SchedulerAction] {
        guard violations.record(reason, from: peer, at: now.monotonic) else { return [] }
        return [.log(.messageDropped(peer: peer, reason: reason, detail: detail))]
    }

    /// After an allow-list reload: workers whose key was removed are told to go and lose
    /// their leases; their reconnection then fails the handshake.
    mutating func allowListChanged(allows: (String) -> Bool, at now: ClockReading) -> [SchedulerAction] {
        var actions: [SchedulerAction] = []
        for (peer, session) in workers.sessions {
            guard let key = session.publicKey, !allows(key) else { continue }
            actions.append(.log(.workerKeyRemoved(id: session.workerId, host: session.host)))
            actions.append(.send(.disconnect(DisconnectReason(.keyNotAllowed)), to: peer))
            actions += drop(
                peer,
                reason: .workerLost,
                message: "worker \(session.workerId): key removed from the allow-list"
            )
        }
        return actions
    }

    /// Workers silent for `liveness` intervals are dropped; rows of the others are marked
    /// for the next commit once a heartbeat interval passed since they were last written
    /// (`status` shows each worker's last heartbeat from the catalog).
    mutating func checkLiveness(at now: ClockReading) -> [SchedulerAction] {
        var actions: [SchedulerAction] = []
        for (peer, session) in workers.sessions {
            let limit = Double(configuration.liveness) * session.heartbeatInterval
            let silence: Double = now.monotonic - session.lastSeen
            if session.lastSeen - session.lastRecorded >= configuration.heartbeatInterval { workers.changed(peer) }
            guard silence > limit else { continue }
            let seconds = String(format: "%.1f", silence)
            let message =
                "worker \(session.workerId) on \(session.host) stopped answering (no message for \(seconds) s)"
            actions.append(
                .log(
                    .workerSilent(
                        id: session.workerId,
                        host: session.host,
                        seconds: silence,
                        jobs: leases.heldCount(by: peer)
                    )
                )
            )
            actions += drop(peer, reason: .workerLost, message: message)
        }
        return actions
    }

    /// Forgets a worker and takes back every lease it held.
    mutating func drop(_ peer: Data, reason: Release.Reason, message: String) -> [SchedulerAction] {
        guard let session = workers[peer] else { return [] }
        if reason == .workerLost { counts.workersLost += 1 }
        leases.dropHolder(peer, reason: reason, message: message)
        workers.remove(peer, leaving: session.row(state: .gone, inFlight: 0))
        return capabilitiesChanged()
    }

    /// The connected workers changed (or what is paused): page only the kinds someone can
    /// take and nobody paused, and note why the others wait (written with the next commit).
    mutating func capabilitiesChanged() -> [SchedulerAction] {
        shortestInterval = workers.all.map(\.heartbeatInterval).min() ?? configuration.heartbeatInterval
        let language = configuration.parameters.ocrLanguage
        let offered = Routing.available(workers.all, ocrLanguage: language)
        let found = Routing.waiting(kinds: configuration.kinds, sessions: workers.all, ocrLanguage: language)
        if found != waits {
            waits = found
            unwrittenWaits = found
        }
        queues.setAvailable(offered.subtracting(paused))
        return []
    }
}
