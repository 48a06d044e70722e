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

/// What the scheduler has to say in the coordinator's log: it returns these as actions
/// (`SchedulerAction.log`) and holds no `Logger`; the service writes them, each at its
/// level with its metadata (`CoordinatorService+Log.swift`).
enum SchedulerLog: Sendable, Hashable {
    /// A worker's READY was accepted.
    case workerReady(id: String, host: String, slots: Int, kinds: Set<Kind>, pathRoots: [String])
    /// A worker said DISCONNECT.
    case workerDisconnected(id: String)
    /// A worker fell silent for its liveness window and lost its jobs.
    case workerSilent(id: String, host: String, seconds: Double, jobs: Int)
    /// An allow-list reload removed a connected worker's key.
    case workerKeyRemoved(id: String, host: String)
    /// A lease ran past its deadline and was taken back.
    case leaseExpired(jobID: String, worker: String, photoId: Int64, kinds: [Kind])
    /// Leases a previous coordinator granted were found at start.
    case previousLeasesFound(count: Int, graceSeconds: Double)
    /// A file for a worker fed bytes could not be read to be sent.
    case fileNotSent(path: String, worker: String, jobID: String, errorClass: ErrorClass, message: String)
    /// An operator paused or resumed kinds.
    case pausedKindsChanged(paused: Set<Kind>, changed: Set<Kind>)
    /// Late results of photos `forget --missing` removed were discarded.
    case forgottenResultsDiscarded(count: Int)
    /// A message from a connection with no registered worker, answered DISCONNECT
    /// `not-registered` (debug: every worker sends some after a coordinator restart).
    case notRegistered(peer: Data, command: Command)
    /// A message was dropped as a protocol violation (the first from its peer in a minute).
    case messageDropped(peer: Data, reason: ProtocolViolation.Reason, detail: String)
}
