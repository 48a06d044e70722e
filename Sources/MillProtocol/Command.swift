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

/// The command byte, the second frame of every message. The values are part of the wire
/// format (PROTOCOL.md, "Commands") and never change; a new command takes a new value.
public enum Command: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Worker → coordinator: capabilities and credits.
    case ready = 0x01
    /// Coordinator → worker: one photo, its kinds and its lease.
    case job = 0x02
    /// Worker → coordinator: renew a lease.
    case extend = 0x03
    /// Worker → coordinator: per-kind outcomes of a job.
    case result = 0x04
    /// Worker → coordinator: the whole job failed.
    case fail = 0x05
    /// Coordinator → worker: results committed or discarded.
    case ack = 0x06
    /// Either way, only when idle.
    case heartbeat = 0x07
    /// Either way: going away.
    case disconnect = 0x08
    /// Coordinator → worker (revision 3): several JOBs without blob frames.
    case jobs = 0x09
    /// Worker → coordinator (revision 3): the RESULTs and FAILs of several jobs.
    case results = 0x0A

    /// The name PROTOCOL.md uses: "READY", "JOB", ….
    public var description: String {
        switch self {
        case .ready: "READY"
        case .job: "JOB"
        case .extend: "EXTEND"
        case .result: "RESULT"
        case .fail: "FAIL"
        case .ack: "ACK"
        case .heartbeat: "HEARTBEAT"
        case .disconnect: "DISCONNECT"
        case .jobs: "JOBS"
        case .results: "RESULTS"
        }
    }

    /// Whether blob frames may follow the body.
    public var carriesBlobs: Bool { self == .job || self == .result || self == .results }
}
