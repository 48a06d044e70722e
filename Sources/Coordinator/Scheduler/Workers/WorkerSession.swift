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

/// The scheduler's view of one connected worker (one ROUTER peer). A class: the scheduler
/// changes a session on every message, in place, and the heartbeat schedule keeps it by
/// reference. The jobs it holds are the `LeaseTable`'s to know.
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

    /// What a lease granted to this worker adds to its deadline for transit: two
    /// heartbeat intervals (PROTOCOL.md, "Leases and deadlines").
    var leaseGrace: Double { 2 * heartbeatInterval }

    func heard(at now: ClockReading) {
        lastSeen = now.monotonic
        lastSeenWall = now.wall
    }

    /// Its `workers` row, with `inFlight` jobs out.
    func row(state: WorkerRow.State, inFlight: Int) -> WorkerRow {
        WorkerRow(
            id: workerId,
            host: host,
            softwareVersion: softwareVersion,
            slots: workingSlots,
            kinds: Kind.list(kinds),
            ocrLanguages: ocrLanguages.sorted().joined(separator: ","),
            state: state,
            connectedAt: connectedAt,
            lastSeen: lastSeenWall,
            inFlight: inFlight,
            done: done,
            failed: failed
        )
    }
}
