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

/// Dispatch at scale (PROTOCOL.md "Batches"; docs/benchmarks.md "A thousand workers"): a
/// worker's jobs of one turn go out together, shares stay fair, and a thousand workers
/// are heartbeated and judged as one is.
@Suite("Scheduler: batches, fairness, a thousand workers")
struct BatchDispatchTests {
    @Test("a worker's jobs of one turn go in one message, as many as its free credits; each answer frees one")
    func jobsOfATurnTogether() throws {
        var h = Harness()
        h.pending = photos(100, kinds: [.hash])
        h.connect("w", slots: 64, kinds: [.hash])
        h.turn()
        #expect(h.jobMessages.map(\.orders.count) == [64])
        let sent = h.jobs(to: "w")
        #expect(sent.map(\.job.photoId) == Array(1...64), "in photo order")
        h.forgetSends()
        h.turn()
        #expect(h.jobMessages.isEmpty, "no credit left")
        // Ten answers in one turn free ten credits: the next turn sends ten, in one message.
        for order in sent.prefix(10) { h.succeed(order, from: "w") }
        h.turn()
        #expect(h.jobMessages.map(\.orders.count) == [10])
        #expect(h.jobs(to: "w").map(\.job.photoId) == Array(65...74))
    }

    @Test(
        "the worker waiting longest for work goes first; one still with credit when the queue runs dry stays first in line"
    )
    func order() throws {
        var h = Harness()
        h.pending = photos(10, kinds: [.hash])
        h.connect("a", slots: 4, kinds: [.hash])
        h.connect("b", slots: 8, kinds: [.hash])
        h.turn()
        #expect(h.jobMessages.map { String(decoding: $0.peer, as: UTF8.self) } == ["a#1", "b#1"])
        #expect(h.jobMessages.map(\.orders.count) == [4, 6])
        // b, left with 2 credits, is served before a, whose answer frees a credit after.
        h.forgetSends()
        h.succeed(
            h.scheduler.leases.entries.values.first { $0.holder == Harness.peer("a") }
                .map {
                    JobOrder(
                        jobID: $0.jobID,
                        token: $0.lease.token,
                        job: PendingJob(
                            photoId: $0.lease.photoId,
                            path: "/photos/\($0.lease.photoId).jpg",
                            size: 1000,
                            mtimeNs: 1,
                            kinds: [.hash]
                        ),
                        fileInBlobs: false
                    )
                }!,
            from: "a"
        )
        h.pending = photos(13, kinds: [.hash]).filter { $0.photoId > 10 }
        h.clock.advance(0.3)
        h.turn()
        #expect(h.jobMessages.map { String(decoding: $0.peer, as: UTF8.self) } == ["b#1", "a#1"])
        #expect(h.jobMessages.map(\.orders.count) == [2, 1])
    }

    @Test("jobs scarcer than credits are shared in turn: 3 one-slot workers, 9 jobs one at a time, 3 each")
    func fairShares() throws {
        var h = Harness()
        for id in ["a", "b", "c"] { h.connect(id, slots: 1, kinds: [.hash]) }
        h.turn()
        var given: [String: Int] = [:]
        for photo in 1...9 {
            // One job becomes due, is sent, answered and committed before the next.
            h.pending = [
                PendingJob(photoId: Int64(photo), path: "/photos/\(photo).jpg", size: 1, mtimeNs: 1, kinds: [.hash])
            ]
            h.forgetSends()
            h.clock.advance(0.3)  // past the empty page's 0.25 s pause
            h.turn()
            let sent = try #require(h.jobMessages.first, "photo \(photo) was not sent")
            let id = String(decoding: sent.peer, as: UTF8.self).replacingOccurrences(of: "#1", with: "")
            given[id, default: 0] += 1
            h.succeed(sent.orders[0], from: id)
            h.commitAll()
            h.pending = []
        }
        #expect(given == ["a": 3, "b": 3, "c": 3])
    }

    @Test("the ready queue holds as many jobs as the workers have slots: 400 workers × 4 slots all busy at once")
    func readyQueueFollowsSlots() throws {
        var h = Harness()
        h.pending = photos(5_000, kinds: [.hash])
        for index in 0..<400 { h.connect("w\(index)", slots: 4, kinds: [.hash]) }
        h.turn()
        // 1,600 slots, more than the configured 1,024: one page fills them all.
        #expect(h.pagesRead.map(\.limit) == [1_600])
        #expect(h.jobs.count == 1_600)
        #expect(h.jobMessages.count == 400 && h.jobMessages.allSatisfy { $0.orders.count == 4 })
    }

    @Test(
        "a thousand idle workers: each heartbeated once an interval; one falling silent is dropped within its liveness window"
    )
    func thousandWorkers() throws {
        var h = Harness()
        let ids = (0..<1_000).map { "w\($0)" }
        for id in ids { h.connect(id, kinds: [.hash]) }
        h.turn()
        #expect(
            Self.heartbeats(h).values.allSatisfy { $0 == 1 } && Self.heartbeats(h).count == 1_000,
            "every READY answered at once"
        )
        h.forgetSends()
        var droppedAt: Double?
        // Ten seconds, a turn every 0.1 s; every worker says HEARTBEAT once a second, but
        // w7 falls silent after its message at 5 s.
        for tenth in 1...100 {
            h.clock.advance(0.1)
            if tenth % 10 == 0 {
                for id in ids where id != "w7" || tenth <= 50 { h.send(.heartbeat, from: id) }
            }
            h.turn()
            if droppedAt == nil && h.session("w7") == nil { droppedAt = Double(tenth) / 10 }
        }
        let perPeer = Self.heartbeats(h)
        let counts = ids.filter { $0 != "w7" }.map { perPeer[Harness.peer($0)] ?? 0 }
        // One an interval: 10 in 10 s, or 9 if the sweep of a turn came a hair early.
        #expect(counts.allSatisfy { (9...10).contains($0) }, "\(Set(counts))")
        let dropped = try #require(droppedAt, "w7 never dropped")
        // Liveness: 3 × 1 s after its last message at 5 s, seen by a check ten times a second.
        #expect(dropped > 8 && dropped <= 8.2, "dropped at \(dropped) s")
        #expect(h.scheduler.workers.count == 999)
    }

    /// HEARTBEATs sent, by peer.
    static func heartbeats(_ h: Harness) -> [Data: Int] {
        h.messages.reduce(into: [:]) { counts, sent in
            if sent.message == .heartbeat { counts[sent.peer, default: 0] += 1 }
        }
    }
}
