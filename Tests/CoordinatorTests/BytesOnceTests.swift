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

/// PROTOCOL.md, "Each file's bytes once" (issue 31): a worker fed bytes gets a photo's
/// kinds of every tier that travels with the bytes in the job that sends them; a worker that
/// reads paths keeps the tier order.
@Suite("Scheduler: each file's bytes once")
struct BytesOnceTests {
    /// Photos 1…n due for every kind, each read by its tier's page as the catalog would
    /// (with `updatedAt`), and the OCR language of the harness's configuration.
    static func library(_ count: Int) -> [PendingJob] {
        (1...Int64(count)).map { id in
            var job = PendingJob(photoId: id, path: "/nas/\(id).jpg", size: 1000 + id, mtimeNs: 1, kinds: [], rank: 0)
            for kind in [Kind.hash, .metadata, .thumbnail, .ocr] { job.add(kind, updatedAt: Double(id)) }
            return job
        }
    }

    @Test(
        "a worker fed bytes gets each photo's hash, metadata and thumbnail in one job and its OCR alone; a path reader keeps the tiers apart"
    )
    func fedJobsJoinTiers() throws {
        var h = Harness()
        h.pending = Self.library(6)
        h.connect("fed", slots: 2, roots: [])
        h.connect("reader", slots: 2, roots: ["/nas"])
        // Answer everything, turn after turn, until no job is left.
        for _ in 0..<40 {
            h.clock.advance(0.1)
            h.turn()
            for id in ["fed", "reader"] {
                for order in h.jobs(to: id) where h.isOut(order.token) { h.finish(order, from: id) }
            }
        }
        let fed = h.jobs(to: "fed")
        let reader = h.jobs(to: "reader")
        #expect(fed.allSatisfy(\.fileInBlobs) && reader.allSatisfy { !$0.fileInBlobs })
        // The fed worker's jobs: tiers 0 and 1 together, OCR alone; never a thumbnail alone.
        #expect(
            Set(fed.map(\.job.kinds)).isSubset(of: [[.hash, .metadata, .thumbnail], [.ocr]]),
            "\(fed.map(\.job.kinds))"
        )
        // The reader's: one tier each.
        #expect(reader.allSatisfy { Set($0.job.kinds.map(\.tier)).count == 1 }, "\(reader.map(\.job.kinds))")
        // Every task done exactly once, over both workers.
        let done = (fed + reader).flatMap { order in order.job.kinds.map { "\(order.job.photoId)-\($0)" } }
        #expect(done.count == 24 && Set(done).count == 24)
        // A photo whose hash went to the fed worker crossed once for tiers 0 and 1.
        for id in Set(fed.filter { $0.job.kinds.contains(.hash) }.map(\.job.photoId)) {
            #expect(fed.filter { $0.job.photoId == id && $0.job.kinds != [.ocr] }.count == 1, "photo \(id)")
        }
        // The lease of a joined job runs for its longest kind (the thumbnail's 120 s) plus
        // the grace, and the page's updatedAt of each kind goes with it.
        let joined = try #require(fed.first { $0.job.kinds.count == 3 })
        #expect(
            joined.job.updatedAt == [
                Double(joined.job.photoId), Double(joined.job.photoId), Double(joined.job.photoId),
            ]
        )
    }

    @Test("the path reader's order: every photo's hash and metadata before any thumbnail")
    func readerKeepsTierOrder() throws {
        var h = Harness()
        h.pending = Self.library(8)
        h.connect("reader", slots: 1, roots: ["/nas"])
        for _ in 0..<40 {
            h.clock.advance(0.1)
            h.turn()
            for order in h.jobs(to: "reader") where h.isOut(order.token) { h.finish(order, from: "reader") }
        }
        let tiers = h.jobs(to: "reader").map(\.job.tier)
        #expect(tiers == Array(repeating: 0, count: 8) + Array(repeating: 1, count: 8) + Array(repeating: 2, count: 8))
    }

    @Test("a fed worker that offers no thumbnail takes tier 0 alone, and the thumbnail waits for one that does")
    func joinsOnlyWhatTheWorkerOffers() throws {
        var h = Harness()
        h.pending = Self.library(2)
        h.connect("fed", slots: 4, kinds: [.hash, .metadata], roots: [])
        h.turn()
        #expect(h.jobs(to: "fed").map(\.job.kinds) == [[.hash, .metadata], [.hash, .metadata]])
        h.connect("thumbs", slots: 4, kinds: [.thumbnail], roots: [])
        h.pass(0.2)
        #expect(h.jobs(to: "thumbs").map(\.job.kinds) == [[.thumbnail], [.thumbnail]])
    }

    @Test("a fed worker lost with a joined job: every kind of it comes back, and its bytes are sent again in one job")
    func lostWorkerSendsAgain() throws {
        var h = Harness()
        h.pending = Self.library(1)
        h.connect("first", slots: 1, roots: [])
        h.turn()
        let lost = try #require(h.jobs(to: "first").first)
        #expect(lost.job.kinds == [.hash, .metadata, .thumbnail] && lost.fileInBlobs)
        // Silent for three intervals: taken for dead.
        h.pass(4)
        h.commitAll()
        let released = h.releases.filter { $0.lease.token == lost.token }
        #expect(
            released.map(\.reason) == [.workerLost] && released.first?.lease.kinds == [.hash, .metadata, .thumbnail]
        )
        // The catalog has them pending again (after their backoff): a new worker gets them
        // in one job, with the bytes.
        h.clock.advance(60)
        h.connect("second", slots: 1, roots: [])
        h.pass(1)
        let again = try #require(h.jobs(to: "second").first)
        #expect(again.job.kinds == [.hash, .metadata, .thumbnail] && again.fileInBlobs && again.token != lost.token)
    }

    @Test("a joined job the socket refused goes back whole: the next fed worker gets all its kinds at once")
    func refusedJoinedJobGoesBackWhole() throws {
        var h = Harness()
        h.pending = Self.library(1)
        h.connect("fed", slots: 1, roots: [])
        h.turn()
        let refused = try #require(h.jobs(to: "fed").first)
        h.run(h.scheduler.jobNotSent(refused, because: .unreachable, at: h.clock.now))
        h.forgetSends()
        // The tiers page again meanwhile: the photo's thumbnail is queued again too, and
        // joins the job once, not twice.
        h.pass(0.5)
        #expect(h.jobs(to: "fed").map(\.job.kinds) == [[.hash, .metadata, .thumbnail]])
    }

    @Test("a later tier's job of another file (changed since the other page) never joins")
    func onlyTheSameFileJoins() throws {
        var first = PendingJob(photoId: 1, path: "/nas/1.jpg", size: 10, mtimeNs: 1, kinds: [])
        first.add(.hash, updatedAt: 1)
        var changed = PendingJob(photoId: 1, path: "/nas/1.jpg", size: 11, mtimeNs: 2, kinds: [])
        changed.add(.thumbnail, updatedAt: 2)
        var same = changed
        same.size = 10
        same.mtimeNs = 1
        #expect(!first.canJoin(changed) && first.canJoin(same))
        #expect(
            !first.canJoin(PendingJob(photoId: 1, path: "/nas/1.jpg", size: 10, mtimeNs: 1, kinds: [.thumbnail])),
            "a job read without updatedAt does not join one read with it"
        )
        first.join(same)
        #expect(first.kinds == [.hash, .thumbnail] && first.updatedAt == [1, 2] && first.tier == 0)
        first.join(same)
        #expect(first.kinds == [.hash, .thumbnail] && first.updatedAt == [1, 2], "a kind it has is not taken twice")
    }
}
