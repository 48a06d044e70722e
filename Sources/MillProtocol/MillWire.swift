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

/// Constants of the wire protocol that both peers must agree on (PROTOCOL.md).
public enum MillWire {
    /// The first frame of every message. The digit is the major version: a peer speaking
    /// another one fails the signature check instead of misreading bodies.
    public static let signature = Data("PMILL1".utf8)
    /// The minor revision this code speaks, sent in READY.protocol_version. Revision 2
    /// added RAW, video and sidecars (the JOB's sidecar fields, Metadata fields 15–24);
    /// revision 3 JOBS and RESULTS, many jobs or results per message (PROTOCOL.md, "Batches"),
    /// and the workers' own timings (KindResult.processing_us).
    public static let protocolVersion: UInt32 = 3
    /// The oldest revision a coordinator admits: the coordinator sends JOBS to every worker,
    /// which a revision-2 worker would drop as an unknown command, so it is turned away at
    /// READY.
    public static let minimumWorkerProtocolVersion: UInt32 = 3
    /// Signature, command and body.
    static let fixedFrameCount = 3

    /// How often an idle peer sends HEARTBEAT unless READY asks for another interval.
    public static let defaultHeartbeatIntervalMs: UInt32 = 1_000
    /// Heartbeat intervals without a message after which a peer is taken for dead.
    public static let heartbeatLiveness = 3
    /// A worker's reconnect delay starts at the lower bound and doubles up to the upper one.
    public static let reconnectBackoffMs: ClosedRange<UInt32> = 1_000...32_000
}
