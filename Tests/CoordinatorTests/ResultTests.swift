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
import PhotomillCore
import PhotomillTestSupport
import Testing

@testable import Coordinator

@Suite("Scheduler: results, ACKs and exactly-once")
struct ResultTests {
    @Test("a result is committed once under its job's token, and ACKed only after the commit")
    func exactlyOnce() throws {
        var h = Harness()
        h.pending = photos(1)
        h.connect("w1")
        h.turn()
        let order = try #require(h.jobs(to: "w1").first)
        #expect(order.job.kinds == [.hash, .metadata] && order.token == "t-1" && order.jobID == "t.1")
        h.pending = []

        h.succeed(order, from: "w1")
        h.pass(0.1)  // the commit interval (50 ms) passes
        let batch = try #require(h.inCommit?.batch)
        #expect(batch.results.map(\.result.leaseToken) == ["t-1", "t-1"])
        #expect(batch.results.map(\.result.kind) == [.hash, .metadata])
        // A quick job: its lease travels with its result, one write.
        #expect(batch.leases.map(\.token) == ["t-1"])
        #expect(h.acks(to: "w1").committed.isEmpty, "no ACK before the commit")

        h.commitAll()
        #expect(h.acks(to: "w1").committed == ["t.1"])
        #expect(h.exported == [1])

        // The worker re-sends it (a lost ACK, a reconnect): nothing is committed again.
        h.succeed(order, from: "w1")
        h.commitAll()
        #expect(h.results.count == 2, "the duplicate added no result to any batch")
        #expect(h.acks(to: "w1").discarded == ["t.1"])
        // A lost ACK makes a conforming worker re-send (PROTOCOL.md): no violation.
        #expect(h.scheduler.violationCounts.isEmpty)
    }

    @Test("a RESULT that lacks a kind of its job fails that kind (protocol), so no task stays leased")
    func missingKind() throws {
        var h = Harness()
        h.pending = photos(1)
        h.connect("w1")
        h.turn()
        let order = try #require(h.jobs(to: "w1").first)
        h.send(
            .result(
                jobID: order.jobID,
                token: order.token,
                reports: [KindReport(kind: .hash, outcome: .hash(md5: "m", sha256: "s"), recipe: "hash/1")]
            ),
            from: "w1"
        )
        h.commitAll()
        let outcomes = h.results.map(\.result.outcome)
        #expect(outcomes.count == 2)
        #expect(outcomes.first == .hash(md5: "m", sha256: "s"))
        #expect(
            outcomes.dropFirst().first
                == .failure(errorClass: .protocol, message: "the worker sent no result for metadata", retryable: true)
        )
    }

    @Test("a draining worker's FAIL shutting-down hands the job back without an attempt")
    func shuttingDownFail() throws {
        var h = Harness()
        h.pending = photos(1)
        h.connect("w1")
        h.turn()
        let order = try #require(h.jobs(to: "w1").first)
        h.send(
            .fail(
                jobID: order.jobID,
                token: order.token,
                errorClass: .shuttingDown,
                message: "stopping",
                retryable: true
            ),
            from: "w1"
        )
        h.commitAll()
        #expect(h.results.isEmpty)
        #expect(h.releases.map(\.reason) == [.shutdown] && h.releases.map(\.lease.token) == ["t-1"])
        #expect(h.acks(to: "w1").discarded == ["t.1"], "nothing of it was written as a result")
    }

    @Test("one commit of 5000 results is ACKed in pieces of at most 4096 job ids")
    func ackSplit() throws {
        var h = Harness { configuration in
            // Nothing commits until the test flushes: one batch of every result.
            configuration.commitBatchSize = 1_000_000
            configuration.commitInterval = 1_000_000
        }
        h.pending = photos(5000, kinds: [.hash])
        h.connect("w1", slots: 1024)
        var answered = 0
        while answered < 5000 {
            h.clock.advance(0.3)
            h.turn()
            let sent = h.jobs(to: "w1")
            for order in sent.dropFirst(answered) { h.succeed(order, from: "w1") }
            #expect(sent.count > answered, "no progress")
            guard sent.count > answered else { break }
            answered = sent.count
        }
        h.commitAll()
        #expect(h.commits.map(\.results.count).max() == 5000)
        let acks = h.messages(to: "w1").compactMap { message -> [String]? in
            if case .ack(let committed, let discarded) = message { return committed + discarded }
            return nil
        }
        #expect(acks.map(\.count).sorted() == [904, 4096])
        #expect(Set(acks.joined()).count == 5000)
    }
}
