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

/// The jobs the coordinator took back from workers it took for dead, remembered so that a
/// job that was only slow is recognised when its worker comes back: its late RESULT or
/// FAIL is recorded as a `stale` attempt (on the books) and ACKed as discarded. Bounded:
/// the oldest are forgotten first; a forgotten one is then only ACKed as discarded, which
/// loses nothing (`LeaseTable.isResend`).
struct Departures {
    private var jobs: [String: LeaseTable.Entry] = [:]
    private var jobOrder: [String] = []
    let capacity: Int

    init(capacity: Int = 65_536) { self.capacity = capacity }

    mutating func remember(_ flight: LeaseTable.Entry) {
        jobs[flight.jobID] = flight
        jobOrder.append(flight.jobID)
        if jobOrder.count > capacity * 2 {
            for id in jobOrder.prefix(capacity) { jobs[id] = nil }
            jobOrder.removeFirst(capacity)
        }
    }

    func holds(_ jobID: String, token: String) -> Bool { jobs[jobID]?.lease.token == token }

    /// The released job `jobID`, if its token is `token`; forgotten once taken.
    mutating func take(_ jobID: String, token: String) -> LeaseTable.Entry? {
        guard let flight = jobs[jobID], flight.lease.token == token else { return nil }
        jobs[jobID] = nil
        return flight
    }
}
