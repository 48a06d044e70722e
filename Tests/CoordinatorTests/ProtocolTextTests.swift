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

/// The points where the first round's coordinator contradicted protocols/PROTOCOL.md
/// (issue 18), each pinned to the text it now follows.
@Suite("Scheduler: as PROTOCOL.md says")
struct ProtocolTextTests {
    /// "heartbeat_interval_ms … Both peers use it for this connection", with a liveness of 3.
    @Test("each worker is heartbeated and judged by the interval of its own READY", arguments: [0.3, 1.0, 5.0])
    func heartbeatIntervalIsTheWorkers(interval: Double) throws {
        var h = Harness()
        h.connect("w1", interval: interval)
        h.turn()
        h.forgetSends()
        // Ten intervals, the worker heartbeating as it should: one HEARTBEAT from the
        // coordinator per interval (it sends nothing else), and the worker never dropped.
        for _ in 0..<10 {
            h.pass(interval, step: interval / 10)
            h.send(.heartbeat, from: "w1")
        }
        #expect((9...11).contains(h.heartbeats(to: "w1")), "\(h.heartbeats(to: "w1")) heartbeats in 10 intervals")
        #expect(h.session("w1") != nil)
        // Silent for just under three of its intervals: still there; just over: taken for dead.
        h.pass(2.9 * interval, step: interval / 10)
        #expect(h.session("w1") != nil)
        h.pass(0.3 * interval, step: interval / 10)
        #expect(h.session("w1") == nil)
        // The loop looks at least four times per shortest interval.
        h.connect("w2", interval: interval)
        #expect(h.scheduler.pollTimeout(at: h.clock.now) <= Int(interval * 1000 / 4))
    }

    /// "the send time, plus the deadline, plus a grace of two intervals", on expiry and EXTEND.
    @Test("a lease lasts its deadline plus two of the worker's intervals, and so does an EXTEND")
    func leaseGraceIsTwoIntervals() throws {
        var h = Harness { $0.deadlines[.hash] = 10 }
        h.pending = photos(1, kinds: [.hash])
        h.connect("w1", interval: 5)
        h.turn()
        let order = try #require(h.jobs(to: "w1").first)
        let granted = h.clock.monotonic
        #expect(h.deadline(order.token) == granted + 10 + 10)
        h.clock.advance(4)
        h.send(.extend(jobID: order.jobID, token: order.token, extraSeconds: 20), from: "w1")
        #expect(h.deadline(order.token) == h.clock.monotonic + 20 + 10)
    }

    /// "job_id … unique per dispatch": across coordinator restarts too, so that a worker may
    /// key its jobs by id and an ACK, which names job ids, settles what it means to.
    @Test("job ids and tokens never repeat across coordinator runs, and carry no photo id")
    func jobIdsAreUniqueAcrossRuns() throws {
        var seen: Set<String> = []
        for _ in 0..<20 {
            var tokens = LeaseTokens()
            for _ in 0..<50 {
                let (jobID, token) = tokens.next()
                #expect(seen.insert(jobID).inserted && seen.insert(token).inserted)
                #expect(jobID.utf8.count <= 15 && token.utf8.count <= 15, "small strings")
            }
        }
        // The same photo dispatched by two runs: two ids.
        var first = Harness()
        var second = Harness()
        first.scheduler = Scheduler(configuration: first.scheduler.configuration, at: first.clock.now)
        second.scheduler = Scheduler(configuration: second.scheduler.configuration, at: second.clock.now)
        first.pending = photos(1, kinds: [.hash])
        second.pending = first.pending
        first.connect("w1")
        second.connect("w1")
        first.turn()
        second.turn()
        let a = try #require(first.jobs(to: "w1").first)
        let b = try #require(second.jobs(to: "w1").first)
        #expect(a.job.photoId == b.job.photoId && a.jobID != b.jobID && a.token != b.token)
    }

    /// "Re-sending is therefore always safe": what a conforming worker re-sends after a lost
    /// ACK or a coordinator restart is ACKed as discarded and never counted; a message for a
    /// job leased to someone else, or under a token no coordinator issues, is.
    @Test("re-sends are ACKed and not counted; impossible tokens are counted")
    func resendsAreNoViolation() throws {
        var h = Harness()
        h.pending = photos(2, kinds: [.hash])
        h.connect("w1", slots: 1)
        h.connect("w2", slots: 1)
        h.turn()
        let report = [KindReport(kind: .hash, outcome: .hash(md5: "m", sha256: "s"), recipe: "hash/1")]
        // Of an earlier run (another run id), RESULT and FAIL and EXTEND:
        h.send(.result(jobID: "0badc0de.7", token: "0badc0de-7", reports: report), from: "w1")
        h.send(
            .fail(jobID: "0badc0de.8", token: "0badc0de-8", errorClass: .corrupt, message: "x", retryable: false),
            from: "w1"
        )
        h.send(.extend(jobID: "0badc0de.9", token: "0badc0de-9", extraSeconds: 5), from: "w1")
        #expect(h.scheduler.violationCounts.isEmpty)
        h.commitAll()
        #expect(Set(h.acks(to: "w1").discarded) == ["0badc0de.7", "0badc0de.8"])
        // Another worker's job, a token of this run not issued yet, and a token of no coordinator:
        let w2job = try #require(h.jobs(to: "w2").first)
        h.send(.result(jobID: w2job.jobID, token: w2job.token, reports: report), from: "w1")
        h.send(.result(jobID: "t.99", token: "t-99", reports: report), from: "w1")
        h.send(.result(jobID: "x", token: "forged-token", reports: report), from: "w1")
        #expect(h.scheduler.violationCounts == [.unknownJob: 3])
        #expect(h.isOut(w2job.token), "the other worker's lease is untouched")
    }
}
