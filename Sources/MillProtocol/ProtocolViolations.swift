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

/// Messages dropped as protocol violations, counted by reason: the coordinator's scheduler
/// and the worker's state machine each keep one. A violation is logged at most once per peer
/// a minute (`record` says when), so a hostile peer cannot flood the log; the counts since
/// `takeUncommitted` last ran go to the catalog with the next commit (`photomill status`).
public struct ProtocolViolations: Sendable {
    public private(set) var counts: [ProtocolViolation.Reason: Int] = [:]
    private var uncommitted: [ProtocolViolation.Reason: Int] = [:]
    private var lastLogged: [Data: MonotonicInstant] = [:]

    public init() {}

    /// Counts one from `peer`; true when it is the first from that peer in a minute, to be
    /// logged.
    public mutating func record(_ reason: ProtocolViolation.Reason, from peer: Data, at now: MonotonicInstant) -> Bool {
        counts[reason, default: 0] += 1
        uncommitted[reason, default: 0] += 1
        defer { if lastLogged.count > 10_000 { lastLogged = lastLogged.filter { now - $0.value < 60 } } }
        guard now - (lastLogged[peer] ?? .distantPast) >= 60 else { return false }
        lastLogged[peer] = now
        return true
    }

    /// The counts not yet handed to a commit; they are forgotten here.
    public mutating func takeUncommitted() -> [ProtocolViolation.Reason: Int] {
        defer { uncommitted.removeAll() }
        return uncommitted
    }
}
