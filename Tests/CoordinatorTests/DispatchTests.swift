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

@Suite("Scheduler: credits, routing, paging")
struct DispatchTests {
    @Test("a worker never holds more jobs than its slots, whatever arrives")
    func creditsNeverExceeded() throws {
        var h = Harness()
        h.pending = photos(200, kinds: [.hash])
        h.connect("a", slots: 3)
        h.connect("b", slots: 5)
        var answered: Set<String> = []
        var generator = SplitMix64(seed: 3)
        for _ in 0..<400 {
            h.clock.advance(0.01)
            h.turn()
            for id in ["a", "b"] {
                let out = h.jobs(to: id).filter { !answered.contains($0.token) }
                #expect(out.count <= (id == "a" ? 3 : 5), "\(id) holds \(out.count)")
                // Answer some of them, in any order.
                for order in out where generator.chance(0.3) {
                    h.succeed(order, from: id)
                    answered.insert(order.token)
                }
            }
        }
        #expect(answered.count > 100, "work flowed: \(answered.count)")
    }

    @Test("OCR goes only to a worker with the run's language; a kinds-limited worker takes its share")
    func routingByKindAndLanguage() throws {
        var h = Harness()
        h.pending =
            photos(2, kinds: [.hash, .metadata, .thumbnail]) + [
                PendingJob(photoId: 3, path: "/photos/3.jpg", size: 1, mtimeNs: 1, kinds: [.ocr])
            ]
        h.connect("hasher", kinds: [.hash])
        h.connect("german", kinds: [.ocr], languages: ["deu"])
        h.turn()
        // Nobody offers metadata, thumbnail, similarity or OCR in eng: they wait, with the reason.
        #expect(h.jobs(to: "german").isEmpty)
        #expect(h.jobs(to: "hasher").map(\.job.kinds) == [[.hash], [.hash]])
        #expect(
            h.waits == [
                .metadata: .kindNotOffered, .thumbnail: .kindNotOffered, .similarity: .kindNotOffered,
                .ocr: .languageNotOffered(language: "eng", offered: ["deu"]),
            ]
        )
        // The catalog now: the hashes are leased, the rest still pending.
        h.pending =
            photos(2, kinds: [.metadata, .thumbnail]) + [
                PendingJob(photoId: 3, path: "/photos/3.jpg", size: 1, mtimeNs: 1, kinds: [.ocr])
            ]
        h.connect("english", slots: 8, kinds: [.metadata, .thumbnail, .similarity, .ocr], languages: ["eng"])
        h.pass(0.2)
        let english = h.jobs(to: "english")
        #expect(english.map(\.job.photoId).sorted() == [1, 1, 2, 2, 3], "a job per photo and tier")
        #expect(Set(english.map(\.job.kinds)) == [[.metadata], [.thumbnail], [.ocr]])
        #expect(h.waits == [:])
    }

    @Test(
        "a file under none of the worker's roots travels as bytes; one too large for a JOB waits for a worker that reads it"
    )
    func bytesOrPath() throws {
        var h = Harness()
        h.pending = [
            PendingJob(photoId: 1, path: "/nas/a.jpg", size: 10, mtimeNs: 1, kinds: [.hash]),
            PendingJob(photoId: 2, path: "/other/b.jpg", size: 10, mtimeNs: 1, kinds: [.hash]),
            PendingJob(photoId: 3, path: "/other/huge.tif", size: 900 << 20, mtimeNs: 1, kinds: [.hash]),
        ]
        h.connect("w1", roots: ["/nas"])
        h.turn()
        let sent = Dictionary(uniqueKeysWithValues: h.jobs(to: "w1").map { ($0.job.photoId, $0.fileInBlobs) })
        #expect(sent == [1: false, 2: true], "832 MiB is the most a JOB carries (PROTOCOL.md, File transfer)")
    }

    @Test("a JOB the socket refused goes back to the queue with its credit; an unreadable file is settled as a failure")
    func jobNotSent() throws {
        var h = Harness()
        h.pending = photos(2, kinds: [.hash])
        h.connect("w1", slots: 2, roots: [])
        h.turn()
        let orders = h.jobs(to: "w1")
        #expect(orders.count == 2 && orders.allSatisfy(\.fileInBlobs))
        h.run(h.scheduler.jobNotSent(orders[0], because: .unreachable, at: h.clock.now))
        h.run(
            h.scheduler.jobNotSent(
                orders[1],
                because: .fileUnreadable(.unreadable, "/photos/2.jpg: gone"),
                at: h.clock.now
            )
        )
        #expect(h.credit("w1") == 2)
        h.forgetSends()
        h.turn()
        #expect(h.jobs(to: "w1").map(\.job.photoId) == [1], "photo 1 again, under a new lease")
        #expect(h.jobs(to: "w1").first?.token != orders[0].token)
        h.commitAll()
        let leases = h.commits.flatMap(\.leases)
        #expect(!leases.contains { $0.token == orders[0].token }, "a JOB never sent leases nothing")
        #expect(leases.contains { $0.token == orders[1].token })
        #expect(
            h.results.map(\.result.outcome) == [
                .failure(errorClass: .unreadable, message: "/photos/2.jpg: gone", retryable: true)
            ]
        )
        #expect(h.results.map(\.result.leaseToken) == [orders[1].token])
    }

    @Test("a requeue signal empties the queues and pages again from the front; without it the position moves on")
    func requeueSignal() throws {
        var h = Harness { $0.readyQueueLimit = 8 }
        h.pending = photos(20, kinds: [.hash])
        h.connect("w1", slots: 2, kinds: [.hash])
        h.turn()
        #expect(h.pagesRead.map(\.after) == [.start])
        #expect(h.jobs(to: "w1").map(\.job.photoId) == [1, 2])
        #expect(h.scheduler.queues.tiers[0].jobs.count == 6)
        h.pending = Array(photos(20, kinds: [.hash]).dropFirst(2))
        // The same mark: nothing to page while the queue holds more than a quarter of its limit.
        h.run(h.scheduler.steeringRead(requeueMark: 0, paused: [], at: h.clock.now))
        #expect(
            h.pagesRead.count == 1 && h.scheduler.queues.tiers[0].paging == .after(QueuePosition(rank: 0, photoId: 8))
        )
        // `photomill retry` put a task back behind the position: the mark moved.
        h.run(h.scheduler.steeringRead(requeueMark: 1, paused: [], at: h.clock.now))
        #expect(h.pagesRead.last == PageRequest(tier: 0, after: .start, limit: 8, kinds: [.hash], dueBy: h.clock.wall))
        #expect(h.scheduler.queues.tiers[0].jobs.count == 8, "photos 3 to 10, none lost, none twice")
    }

    @Test("an idle worker hears a HEARTBEAT once an interval, a worker sent jobs none")
    func heartbeats() throws {
        var h = Harness()
        h.connect("idle", kinds: [.ocr])
        h.turn()
        #expect(h.heartbeats(to: "idle") == 1, "READY is answered at once")
        h.pass(2.95) { $0.send(.heartbeat, from: "idle") }
        #expect(h.heartbeats(to: "idle") == 3)
        h.pending = photos(40, kinds: [.hash])
        h.connect("busy", slots: 1, kinds: [.hash])
        h.forgetSends()
        h.pass(3) { h in
            h.send(.heartbeat, from: "idle")
            if let order = h.jobs(to: "busy").last { h.succeed(order, from: "busy") }
        }
        #expect(h.heartbeats(to: "busy") == 0)
        #expect(h.jobs(to: "busy").count == 30)
        #expect(h.heartbeats(to: "idle") == 3)
    }
}
