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

import Catalog
import Foundation
import MillProtocol
import PhotomillCore
import PhotomillTestSupport
import Testing

@testable import Coordinator

@Suite("Scheduler: leases, EXTEND, lost workers")
struct LeaseTests {
    /// Deadlines of 10 s for every kind, so the tests' times are easy to follow.
    static func harness() -> Harness {
        Harness { configuration in
            for kind in Kind.allCases { configuration.deadlines[kind] = 10 }
        }
    }

    @Test(
        "a lease past its deadline and the grace is taken back once; the worker's late result is settled as the catalog finds it"
    )
    func staleAfterExpiry() throws {
        var h = Self.harness()
        h.pending = photos(1)
        h.connect("w1", slots: 1)
        h.turn()
        let order = try #require(h.jobs(to: "w1").first)
        h.pending = []
        // The worker is alive (heartbeats) but the job hangs. The lease runs for the 10 s
        // deadline plus PROTOCOL.md's grace of two heartbeat intervals (1 s each here).
        h.pass(11.9) { $0.send(.heartbeat, from: "w1") }
        h.commitAll()
        #expect(h.releases.isEmpty, "not before the deadline and its grace")
        h.pass(0.3) { $0.send(.heartbeat, from: "w1") }
        h.commitAll()
        #expect(h.releases.map(\.reason) == [.leaseExpired])
        #expect(h.releases.first?.lease.token == order.token)
        // Its slot stays taken: the worker is still busy with the job.
        h.pass(5) { $0.send(.heartbeat, from: "w1") }
        h.commitAll()
        #expect(h.releases.count == 1, "released once")
        #expect(h.credit("w1") == 0)

        // The late result: committed under the old token, which the catalog finds stale.
        h.stale.insert(order.token)
        h.succeed(order, from: "w1")
        h.commitAll()
        #expect(h.results.map(\.result.leaseToken) == [order.token, order.token])
        #expect(h.acks(to: "w1").discarded == [order.jobID])
        #expect(h.credit("w1") == 1, "the late result returns the credit")
    }

    @Test("EXTEND moves the deadline, but never beyond four times the deadline from the grant")
    func extendAndItsCap() throws {
        var h = Self.harness()
        h.pending = photos(1, kinds: [.ocr])
        h.connect("w1", slots: 1)
        h.turn()
        let order = try #require(h.jobs(to: "w1").first)
        let grantedWall = h.clock.wall
        var released: Double?
        var elapsed = 0.0
        // A hung job in a worker whose socket thread EXTENDs every 5 s, 10 s at a time.
        while elapsed < 60 && released == nil {
            h.pass(5) { $0.send(.heartbeat, from: "w1") }
            elapsed += 5
            h.send(.extend(jobID: order.jobID, token: order.token, extraSeconds: 10), from: "w1")
            h.commitAll()
            if !h.releases.isEmpty { released = elapsed }
        }
        // Granted at 0 with a 10 s deadline: capped at 40 s, taken back in the turn after.
        #expect(released == 45)
        #expect(h.releases.map(\.reason) == [.leaseExpired])
        // The catalog's expiry followed the EXTENDs, on the wall clock, and stopped at the cap.
        let expiries = h.commits.flatMap(\.extensions).map(\.expiresAt)
        #expect(expiries.count == 8)
        #expect(abs(try #require(expiries.max()) - (grantedWall + 40)) < 0.001)
    }

    @Test("an EXTEND for a job the worker does not hold is dropped and counted")
    func extendOfAStranger() throws {
        var h = Self.harness()
        h.pending = photos(1)
        h.connect("w1")
        h.connect("w2")
        h.turn()
        let order = try #require(h.jobs(to: "w1").first ?? h.jobs(to: "w2").first)
        let other = h.jobs(to: "w1").isEmpty ? "w1" : "w2"
        h.send(.extend(jobID: order.jobID, token: order.token, extraSeconds: 10), from: other)
        #expect(h.scheduler.violationCounts == [.unknownJob: 1], "the job is leased to another worker")
        #expect(h.deadline(order.token) == h.clock.monotonic + 10 + 2)
    }

    @Test("a silent worker is dropped after three intervals and its leases are released at once")
    func lostWorker() throws {
        var h = Self.harness()
        h.pending = photos(3)
        h.connect("w1", slots: 2)
        h.connect("w2", slots: 1)
        h.turn()
        #expect(h.jobs(to: "w1").count == 2 && h.jobs(to: "w2").count == 1)
        h.pending = []
        // w2 keeps talking; w1 goes silent.
        h.pass(3.0) { $0.send(.heartbeat, from: "w2") }
        #expect(h.session("w1") != nil, "3 s of silence is still within the liveness")
        h.pass(0.2) { $0.send(.heartbeat, from: "w2") }
        #expect(h.session("w1") == nil)
        h.commitAll()
        let lost = h.releases.filter { $0.reason == .workerLost }
        #expect(Set(lost.map(\.lease.token)) == Set(h.jobs(to: "w1").map(\.token)))
        #expect(lost.allSatisfy { $0.message.contains("stopped answering") })
        #expect(h.session("w2") != nil)

        // Only frozen: its late result is recognised (no violation), committed as the
        // catalog finds it, and its old connection is asked to start over.
        let late = h.jobs(to: "w1")[0]
        h.send(.heartbeat, from: "w1")
        #expect(h.disconnects(to: "w1") == ["not-registered"])
        #expect(h.scheduler.violationCounts.isEmpty, "a departed worker is no stranger")
        h.connect("w1", slots: 2)
        h.stale.insert(late.token)
        h.succeed(late, from: "w1")
        h.commitAll()
        #expect(h.acks(to: "w1").discarded == [late.jobID])
    }

    @Test("leases of a previous run wait for their worker, then are released")
    func inheritedLeases() throws {
        var h = Harness { $0.orphanGrace = 15 }
        let lease = Lease(
            photoId: 7,
            kinds: [.hash],
            token: "old-1",
            worker: "w-old",
            leasedAt: h.clock.wall - 5,
            expiresAt: h.clock.wall + 55
        )
        let gone = Lease(
            photoId: 8,
            kinds: [.hash],
            token: "old-2",
            worker: "w-gone",
            leasedAt: h.clock.wall - 5,
            expiresAt: h.clock.wall + 55
        )
        h.run(h.scheduler.adopt([lease, gone], at: h.clock.now))
        // w-old comes back and re-sends its result under the old job id it knew.
        h.pass(2)
        h.connect("w-old")
        h.send(
            .result(
                jobID: "7.99",
                token: "old-1",
                reports: [KindReport(kind: .hash, outcome: .hash(md5: "m", sha256: "s"), recipe: "hash/1")]
            ),
            from: "w-old"
        )
        h.commitAll()
        #expect(h.results.map(\.result.leaseToken) == ["old-1"])
        #expect(h.acks(to: "w-old").committed == ["7.99"])
        // w-gone never does: released once the grace is over, not before.
        h.pass(12.5) { $0.send(.heartbeat, from: "w-old") }
        h.commitAll()
        #expect(h.releases.isEmpty)
        h.pass(0.6) { $0.send(.heartbeat, from: "w-old") }
        h.commitAll()
        #expect(h.releases.map(\.lease.token) == ["old-2"] && h.releases.map(\.reason) == [.workerLost])
    }

    @Test("jitter keeps every retry delay within ±50 % of base·2^(n−1), capped")
    func retryBackoff() {
        let policy = RetryPolicy(baseDelay: 2, maxDelay: 300)
        var generator = SplitMix64(seed: 7)
        for attempt in 1...12 {
            let nominal = 2 * pow(2, Double(attempt - 1))
            let delays = (0..<200).map { _ in policy.delay(afterAttempt: attempt, using: &generator) }
            #expect(
                delays.allSatisfy { $0 >= min(300, nominal * 0.5) && $0 <= min(300, nominal * 1.5) },
                "attempt \(attempt)"
            )
            if nominal * 1.5 < 300 {
                // Jittered: spread over most of the range, not one value.
                #expect(delays.max()! - delays.min()! > nominal * 0.8, "attempt \(attempt)")
            }
        }
        var first = SplitMix64(seed: 9)
        var second = SplitMix64(seed: 9)
        #expect(policy.delay(afterAttempt: 3, using: &first) == policy.delay(afterAttempt: 3, using: &second))
    }
}
