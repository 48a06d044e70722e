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
import PhotomillCore

/// The connected workers: their sessions by connection, their slots together, those with
/// credit in the order they got it, when each is next due a HEARTBEAT, and which of their
/// `workers` rows the catalog has not heard of yet. What they hold is the `LeaseTable`'s.
struct WorkerRegistry {
    private(set) var sessions: [Data: WorkerSession] = [:]
    /// The slots of the connected workers together.
    private(set) var totalSlots = 0
    /// Sessions with free credit, longest waiting first: dispatch looks at those alone.
    var withCredit = CreditQueue()
    var heartbeats = HeartbeatSchedule()
    /// Sessions whose catalog row is out of date, and rows of workers that left.
    private var changed: Set<Data> = []
    private var departed: [WorkerRow] = []

    subscript(peer: Data) -> WorkerSession? { sessions[peer] }

    var isEmpty: Bool { sessions.isEmpty }
    var count: Int { sessions.count }
    var all: Dictionary<Data, WorkerSession>.Values { sessions.values }

    /// The session of the worker `workerId` on another connection, if any.
    func peer(ofWorker workerId: String) -> Data? {
        sessions.first { $0.value.workerId == workerId }?.key
    }

    /// A worker that sent READY; due a HEARTBEAT at once (READY is answered in this turn).
    mutating func register(_ session: WorkerSession, at now: MonotonicInstant) {
        sessions[session.routingId] = session
        totalSlots += session.slots
        heartbeats.schedule(session, at: now)
        changed.insert(session.routingId)
    }

    /// Forgets a connection's session; with `row`, the catalog hears that its worker left.
    @discardableResult
    mutating func remove(_ peer: Data, leaving row: WorkerRow? = nil) -> WorkerSession? {
        guard let session = sessions.removeValue(forKey: peer) else { return nil }
        totalSlots -= session.slots
        withCredit.remove(peer)
        changed.remove(peer)
        if let row { departed.append(row) }
        return session
    }

    /// Its row is to be written with the next commit.
    mutating func changed(_ peer: Data) {
        changed.insert(peer)
    }

    /// Keeps `withCredit` in step with a session whose credit changed (outside dispatch):
    /// one that gains credit joins the back of the line.
    mutating func credit(_ session: WorkerSession, is credit: Int) {
        if credit > 0 { withCredit.append(session.routingId) } else { withCredit.remove(session.routingId) }
    }

    /// The rows the next commit writes, forgotten here: changed sessions' (`inFlight` says
    /// how many jobs each holds) and departed workers'.
    mutating func takeRows(inFlight: (Data) -> Int) -> [WorkerRow] {
        var rows: [WorkerRow] = []
        for peer in changed {
            guard let session = sessions[peer] else { continue }
            rows.append(session.row(state: .connected, inFlight: inFlight(peer)))
            session.lastRecorded = session.lastSeen
        }
        changed.removeAll()
        defer { departed.removeAll() }
        return rows + departed
    }
}
