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

/// The order of work (docs/architecture.md, "The order of work") and an operator's pause,
/// event by event with the manual clock. The expected orders are the rules of issue 15
/// written out by hand: hash and metadata of every photo, then every thumbnail, then OCR;
/// a prioritized folder before everything.
@Suite("Scheduler: the order of work, priorities, pause and resume")
struct SteeringTests {
    /// Runs `h` until `id` has been sent `count` jobs, finishing each at once (one slot:
    /// one job out at a time), and returns them in the order they were sent.
    private func drain(_ h: inout Harness, worker id: String, count: Int) -> [(photo: Int64, kinds: [Kind])] {
        var finished = 0
        for _ in 0..<200 where finished < count {
            h.clock.advance(0.1)
            h.turn()
            for order in h.jobs(to: id).dropFirst(finished) {
                h.finish(order, from: id)
                finished += 1
            }
        }
        return h.jobs(to: id).map { ($0.job.photoId, $0.job.kinds) }
    }

    @Test("hash and metadata of every photo first, in one job each, then every thumbnail, then OCR")
    func cheapKindsFirst() {
        var h = Harness()
        h.pending = photos(3, kinds: Kind.allCases)
        h.connect("w", slots: 1)
        let sent = drain(&h, worker: "w", count: 9)
        #expect(sent.map(\.photo) == [1, 2, 3, 1, 2, 3, 1, 2, 3])
        #expect(
            sent.map(\.kinds) == [
                [.hash, .metadata], [.hash, .metadata], [.hash, .metadata],
                [.thumbnail, .similarity], [.thumbnail, .similarity], [.thumbnail, .similarity], [.ocr], [.ocr], [.ocr],
            ]
        )
    }

    @Test("within a tier, the lower rank first: new files ahead of an older backlog")
    func newFilesFirst() {
        var h = Harness()
        // Photos 1-3 queued by an older scan (rank -1000), 4-5 by a later one (-2000).
        h.pending =
            photos(3, kinds: [.hash], rank: -1000)
            + [4, 5].map {
                PendingJob(photoId: $0, path: "/photos/\($0).jpg", size: 1, mtimeNs: 1, kinds: [.hash], rank: -2000)
            }
        h.connect("w", slots: 1)
        #expect(drain(&h, worker: "w", count: 5).map(\.photo) == [4, 5, 1, 2, 3])
    }

    @Test("a prioritized folder goes first, every kind of it, ahead of the cheaper tiers")
    func prioritizedFirst() {
        var h = Harness()
        h.pending =
            photos(2, kinds: Kind.allCases, rank: -1000)
            + [
                PendingJob(
                    photoId: 7,
                    path: "/photos/urgent/7.jpg",
                    size: 1,
                    mtimeNs: 1,
                    kinds: Kind.allCases,
                    rank: TaskRank.prioritized - 1
                )
            ]
        h.connect("w", slots: 1)
        let sent = drain(&h, worker: "w", count: 9)
        #expect(sent.map(\.photo) == [7, 7, 7, 1, 2, 1, 2, 1, 2])
        #expect(sent.prefix(3).map(\.kinds) == [[.hash, .metadata], [.thumbnail, .similarity], [.ocr]])
    }

    @Test("a worker that offers only OCR gets OCR while the cheap tiers have a long backlog")
    func noStarvation() {
        var h = Harness()
        h.pending = photos(600, kinds: Kind.allCases)
        h.connect("cheap", slots: 2, kinds: [.hash, .metadata])
        h.connect("reader", slots: 2, kinds: [.ocr])
        h.turn()
        #expect(h.jobs(to: "reader").map(\.job.kinds) == [[.ocr], [.ocr]])
        #expect(h.jobs(to: "reader").map(\.job.photoId) == [1, 2])
        #expect(h.jobs(to: "cheap").map(\.job.kinds) == [[.hash, .metadata], [.hash, .metadata]])
    }

    @Test(
        "a paused kind is leased no more after the next steering read (half a second); jobs out finish; resume goes on"
    )
    func pauseAndResume() {
        var h = Harness()
        h.pending = photos(30, kinds: [.hash, .thumbnail])
        h.connect("w", slots: 2)
        h.turn()
        let before = h.jobs(to: "w")
        #expect(before.map(\.job.kinds) == [[.hash], [.hash]])
        let pausedAt = h.clock.monotonic
        h.paused = [.hash: Pause(reason: "test", since: h.clock.wall)]
        var granted: [(at: MonotonicInstant, order: JobOrder)] = []
        h.pass(2) { h in
            for order in h.jobs(to: "w") where !granted.contains(where: { $0.order.token == order.token }) {
                granted.append((h.clock.monotonic, order))
            }
            for order in h.jobs(to: "w") where h.isOut(order.token) { h.finish(order, from: "w") }
        }
        let lateHashes = granted.filter { $0.order.job.kinds.contains(.hash) && $0.at - pausedAt > 0.5 }
        #expect(
            lateHashes.isEmpty,
            "hash jobs granted after the pause was read: \(lateHashes.map(\.order.job.photoId))"
        )
        #expect(granted.contains { $0.order.job.kinds == [.thumbnail] }, "the other kinds go on")
        let committed = Set(h.results.map(\.result.leaseToken))
        #expect(
            before.allSatisfy { committed.contains($0.token) },
            "the jobs out when it paused finished and were committed"
        )
        let hashesLeft = h.pending.filter { $0.kinds.contains(.hash) }.count
        #expect(hashesLeft > 0, "work of the paused kind waits")

        h.paused = [:]
        h.pass(6) { h in
            for order in h.jobs(to: "w") where h.isOut(order.token) { h.finish(order, from: "w") }
        }
        #expect(h.pending.isEmpty, "after resume every task was leased and finished")
    }

    @Test("with only paused work left, the scheduler is idle (so `run` can end)")
    func pausedWorkLeavesTheSchedulerIdle() {
        var h = Harness()
        h.paused = [.ocr: Pause(reason: "test", since: h.clock.wall)]
        h.pending = photos(3, kinds: [.hash, .ocr])
        h.connect("w", slots: 4)
        h.pass(1) { h in
            for order in h.jobs(to: "w") where h.isOut(order.token) { h.finish(order, from: "w") }
        }
        #expect(h.jobs(to: "w").allSatisfy { $0.job.kinds == [.hash] })
        #expect(h.scheduler.isIdle)
    }
}
