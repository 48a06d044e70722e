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

// What the scheduler hears and says, in photomill's vocabulary. The service converts
// to and from the wire (Service/CoordinatorService+Wire.swift); nothing here is protobuf.

/// A worker's READY.
struct WorkerHello: Sendable, Hashable {
    var workerId: String
    var host: String
    /// READY.software_version, for `status` only (PROTOCOL.md: no decision depends on it).
    var softwareVersion: String = ""
    /// Credits: READY.slots.
    var slots: Int
    /// The kinds it offers that this revision knows.
    var kinds: Set<Kind>
    var ocrLanguages: Set<String>
    /// Path prefixes (the coordinator's namespace) it reads itself.
    var pathRoots: [String]
    /// The minor protocol revision it speaks (READY.protocol_version).
    var protocolVersion: UInt32 = MillWire.protocolVersion
    /// Seconds; both peers heartbeat and count silence by it on this connection
    /// (READY.heartbeat_interval_ms, PROTOCOL.md "Heartbeating").
    var heartbeatInterval: Double = 1
    /// Of `slots`, the jobs it only holds ahead (READY.prefetch): it works on
    /// `slots - prefetch` at once, what `status` and the metrics show as its slots.
    var prefetch: Int = 0
}

/// One kind's outcome in a RESULT.
struct KindReport: Sendable, Hashable {
    var kind: Kind
    var outcome: TaskOutcome
    var recipe: String
}

/// What a registered worker may send after READY.
enum WorkerMessage: Sendable {
    case result(jobID: String, token: String, reports: [KindReport])
    case fail(jobID: String, token: String, errorClass: ErrorClass, message: String, retryable: Bool)
    case extend(jobID: String, token: String, extraSeconds: Double)
    case heartbeat
    case disconnect
    /// A valid command that workers never send (JOB, ACK, a READY of a known peer is
    /// `Scheduler.ready`'s business).
    case unexpected(Command)

    var command: Command {
        switch self {
        case .result: .result
        case .fail: .fail
        case .extend: .extend
        case .heartbeat: .heartbeat
        case .disconnect: .disconnect
        case .unexpected(let command): command
        }
    }
}

/// A job to send: the service builds the JOB (and has the file read when the worker takes
/// it as bytes), then tells the scheduler if it could not (`Scheduler.jobNotSent`).
struct JobOrder: Sendable, Hashable {
    var jobID: String
    var token: String
    var job: PendingJob
    /// The worker reads no path of this file: its bytes travel in the JOB.
    var fileInBlobs: Bool
}

/// Why a dispatched job never left.
enum NotSent: Sendable, Hashable {
    /// The socket refused it (EHOSTUNREACH: the peer is gone; liveness will drop it).
    case unreachable
    /// The coordinator could not read the file to send it as bytes: settled like a FAIL
    /// from the worker, an attempt with the cause.
    case fileUnreadable(ErrorClass, String)
}

/// A page of one tier's due work the scheduler asks for (`Catalog.pendingJobs`).
struct PageRequest: Sendable, Hashable {
    var tier: Int
    var after: QueuePosition
    var limit: Int
    var kinds: Set<Kind>
    /// The wall-clock time the tasks' `notBefore` (a stored timestamp) is compared with.
    var dueBy: Double
}

/// Coordinator → worker, besides JOB.
enum ControlMessage: Sendable, Hashable {
    case heartbeat
    case ack(committed: [String], discarded: [String])
    case disconnect(DisconnectReason)
}

/// What the scheduler asks its service to do, in order.
enum SchedulerAction: Sendable {
    /// The jobs one worker is granted in a turn, in order (JOBS for those it reads itself).
    case sendJobs([JobOrder], to: Data)
    case send(ControlMessage, to: Data)
    /// Write the batch in one transaction (on the committer's thread), then call
    /// `Scheduler.committed` with its report and these ACKs. `wall`: its timestamp.
    case commit(CommitBatch, acks: [PendingAck], wall: Double)
    /// Read `Catalog.steering()` and call `Scheduler.steeringRead`.
    case readSteering
    /// Read the page and call `Scheduler.pageFetched`.
    case fetchPage(PageRequest)
    /// These photos' results were just committed (the exports follow them).
    case committedPhotos([Int64])
    /// A line for the coordinator's log.
    case log(SchedulerLog)
}

/// An ACK that may go out only once its batch is committed.
struct PendingAck: Hashable, Sendable {
    var routingId: Data
    var jobID: String
    var token: String
}
