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
import SwiftProtobuf

/// One decoded message: the command, its protobuf body and, for the two commands that
/// carry bytes, the blob frames that followed the body.
public enum MillMessage: Sendable, Hashable {
    case ready(Photomill_V1_Ready)
    /// `blobs`: the file's bytes, split over frames, when `job.fileInBlobs` (else none),
    /// then the sidecar's in one frame when `job.sidecarInBlobs`.
    case job(Photomill_V1_Job, blobs: [Data])
    case extend(Photomill_V1_Extend)
    /// `blobs`: each referenced by exactly one index in the body (thumbnail JPEGs).
    case result(Photomill_V1_Result, blobs: [Data])
    case fail(Photomill_V1_Fail)
    case ack(Photomill_V1_Ack)
    case heartbeat(Photomill_V1_Heartbeat = .init())
    case disconnect(Photomill_V1_Disconnect)
    /// Several JOBs, none with blob frames (revision 3).
    case jobs(Photomill_V1_Jobs)
    /// Several RESULTs and FAILs (revision 3). `blobs`: the results' thumbnails, each
    /// result's in a run of its own, in the order of the results (`resultBlobs`).
    case results(Photomill_V1_Results, blobs: [Data])

    public var command: Command {
        switch self {
        case .ready: .ready
        case .job: .job
        case .extend: .extend
        case .result: .result
        case .fail: .fail
        case .ack: .ack
        case .heartbeat: .heartbeat
        case .disconnect: .disconnect
        case .jobs: .jobs
        case .results: .results
        }
    }

    /// The body as the protobuf message it is, for encoding.
    var body: any SwiftProtobuf.Message {
        switch self {
        case .ready(let body): body
        case .job(let body, _): body
        case .extend(let body): body
        case .result(let body, _): body
        case .fail(let body): body
        case .ack(let body): body
        case .heartbeat(let body): body
        case .disconnect(let body): body
        case .jobs(let body): body
        case .results(let body, _): body
        }
    }

    /// The frames after the body.
    public var blobs: [Data] {
        switch self {
        case .job(_, let blobs), .result(_, let blobs), .results(_, let blobs): blobs
        default: []
        }
    }
}
