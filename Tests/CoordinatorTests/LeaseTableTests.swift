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
import PhotomillTestSupport
import Testing

@testable import Coordinator

/// The `LeaseTable` alone, event by event: the rules exactly-once rests on (one token per
/// task in flight, a result settles at most one lease, a lease taken back comes back once)
/// and the way a lease reaches the catalog. LeaseTableModelTests drives it at random
/// against a model.
@Suite("LeaseTable: grants, answers, take-backs and the way into the catalog")
struct LeaseTableTests {
    let a = Data("a#1".utf8), b = Data("b#1".utf8)

    func job(_ photo: Int64, _ kinds: [Kind] = [.hash, .metadata]) -> PendingJob {
        PendingJob(
            photoId: photo,
            path: "/p/\(photo).jpg",
            size: 1,
            mtimeNs: 1,
            kinds: kinds,
            updatedAt: kinds.map { _ in 7 }
        )
    }

    @Test("a result settles its lease once; a second answer, or another worker's, finds nothing")
    func claimOnce() {
        var clock = ManualClock()
        var table = LeaseTable(run: "t")
        let (jobID, token) = table.grant(job(1), to: a, worker: "wa", seconds: 10, at: clock.now)
        #expect(table.claim(jobID, token: token, from: b, worker: "wb") == nil, "another worker's job")
        #expect(table.claim(jobID, token: token, from: a, worker: "wa")?.lease.token == token)
        #expect(table.claim(jobID, token: token, from: a, worker: "wa") == nil)
        #expect(table.isResend(token), "a re-send after the ACK was lost: no violation")
        #expect(!table.isResend("t-99"), "a token this run has not issued")
        #expect(table.heldCount(by: a) == 0 && table.isEmpty)
    }

    @Test("a lease answered before it is written folds its successes; a failed kind's lease is still written")
    func fold() throws {
        var clock = ManualClock()
        var table = LeaseTable(run: "t")
        let (jobID, token) = table.grant(job(1), to: a, worker: "wa", seconds: 10, at: clock.now)
        _ = table.claim(jobID, token: token, from: a, worker: "wa")
        #expect(table.fold(token, succeeded: [.hash]) == [.hash: 7])
        let taken = table.takeForCommit(at: clock.monotonic, keepingBack: 0.5, evenIfEmpty: false)
        let writes = try #require(taken)
        #expect(
            writes.leases.map(\.kinds) == [[.metadata]],
            "hash folded into its result, metadata leased for its failure"
        )
        // Once handed to a commit a lease is written: nothing folds any more.
        let (jobID2, token2) = table.grant(job(2), to: a, worker: "wa", seconds: 10, at: clock.now)
        clock.advance(1)
        #expect(
            table.takeForCommit(at: clock.monotonic, keepingBack: 0.5, evenIfEmpty: false)?.leases.map(\.token) == [
                token2
            ]
        )
        _ = table.claim(jobID2, token: token2, from: a, worker: "wa")
        #expect(table.fold(token2, succeeded: [.hash, .metadata]).isEmpty)
    }

    @Test("a young lease waits for its result; an old one, an expired one and an answered one are written")
    func keptBack() throws {
        var clock = ManualClock()
        var table = LeaseTable(run: "t")
        let (_, young) = table.grant(job(1), to: a, worker: "wa", seconds: 10, at: clock.now)
        #expect(table.takeForCommit(at: clock.monotonic, keepingBack: 0.5, evenIfEmpty: false) == nil)
        let taken = table.takeForCommit(at: clock.monotonic, keepingBack: 0.5, evenIfEmpty: true)
        let empty = try #require(taken)
        #expect(empty.isEmpty, "nothing of its own when the commit has other work")
        clock.advance(0.6)
        #expect(
            table.takeForCommit(at: clock.monotonic, keepingBack: 0.5, evenIfEmpty: false)?.leases.map(\.token) == [
                young
            ]
        )
    }

    @Test("the page leaves out tasks whose leases are not written, or being written, until committed")
    func pageFilter() throws {
        var clock = ManualClock()
        var table = LeaseTable(run: "t")
        let (_, token) = table.grant(job(1, [.hash]), to: a, worker: "wa", seconds: 10, at: clock.now)
        let page = [job(1), job(2)]
        #expect(table.leavingOutUnwritten(page).map(\.photoId) == [2])
        clock.advance(1)
        #expect(
            table.takeForCommit(at: clock.monotonic, keepingBack: 0.5, evenIfEmpty: false)?.leases.map(\.token) == [
                token
            ]
        )
        #expect(
            table.leavingOutUnwritten(page).map(\.photoId) == [2],
            "being written: the page may be read before the commit"
        )
        table.committed()
        #expect(table.leavingOutUnwritten(page).map(\.photoId) == [1, 2], "written: the catalog itself leaves it out")
    }

    @Test(
        "a dropped worker's running leases come back once, expired ones are not released again, and a late answer is known"
    )
    func dropAndExpiry() throws {
        var clock = ManualClock()
        var table = LeaseTable(run: "t")
        let (_, first) = table.grant(job(1), to: a, worker: "wa", seconds: 5, at: clock.now)
        clock.advance(3)
        let (second, token2) = table.grant(job(2), to: a, worker: "wa", seconds: 5, at: clock.now)
        clock.advance(3)
        #expect(table.expire(at: clock.now) { _ in "late" }.map(\.lease.token) == [first])
        #expect(table.expire(at: clock.now) { _ in "late" }.isEmpty, "expired once")
        #expect(table.heldCount(by: a) == 2, "the expired job keeps its slot")
        table.dropHolder(a, reason: .workerLost, message: "gone")
        table.dropHolder(a, reason: .workerLost, message: "gone")
        clock.advance(1)
        let taken = table.takeForCommit(at: clock.monotonic, keepingBack: 0.5, evenIfEmpty: false)
        let writes = try #require(taken)
        #expect(writes.releases.map(\.lease.token) == [first, token2])
        #expect(writes.releases.map(\.reason) == [.leaseExpired, .workerLost])
        #expect(table.isDeparted(second, token: token2))
        #expect(table.departed(second, token: token2)?.lease.token == token2)
        #expect(table.departed(second, token: token2) == nil, "taken once")
    }

    @Test("a JOB never sent: forgotten while its lease is unwritten, handed back once written")
    func withdraw() throws {
        var clock = ManualClock()
        var table = LeaseTable(run: "t")
        let (_, unwritten) = table.grant(job(1), to: a, worker: "wa", seconds: 10, at: clock.now)
        guard case .forgotten = table.withdraw(unwritten) else {
            Issue.record("not forgotten")
            return
        }
        #expect(
            table.takeForCommit(at: clock.monotonic, keepingBack: 0.5, evenIfEmpty: false) == nil,
            "no lease, no release"
        )
        let (_, written) = table.grant(job(2), to: a, worker: "wa", seconds: 10, at: clock.now)
        clock.advance(1)
        _ = table.takeForCommit(at: clock.monotonic, keepingBack: 0.5, evenIfEmpty: false)
        guard case .handedBack = table.withdraw(written) else {
            Issue.record("not handed back")
            return
        }
        #expect(table.withdraw(written) == nil)
        table.committed()
        let taken = table.takeForCommit(at: clock.monotonic, keepingBack: 0.5, evenIfEmpty: false)
        let writes = try #require(taken)
        #expect(writes.releases.map(\.reason) == [.notSent] && writes.leases.isEmpty)
    }

    @Test("a previous run's leases follow their worker back, are claimed by token, and the others are released once")
    func previousRun() throws {
        var clock = ManualClock()
        var table = LeaseTable(run: "t")
        let old = Lease(
            photoId: 1,
            kinds: [.hash],
            token: "old-1",
            worker: "wa",
            leasedAt: clock.wall - 5,
            expiresAt: clock.wall + 55
        )
        let gone = Lease(
            photoId: 2,
            kinds: [.hash],
            token: "old-2",
            worker: "wz",
            leasedAt: clock.wall - 5,
            expiresAt: clock.wall + 55
        )
        table.adopt([old, gone], grace: 15, at: clock.now)
        table.attach(worker: "wa", to: a)
        #expect(table.heldCount(by: a) == 1)
        #expect(table.claim("another-coordinator.7", token: "old-1", from: a, worker: "wa")?.lease == old)
        table.releasePreviousRun { "\($0.lease.worker) did not come back" }
        table.releasePreviousRun { "\($0.lease.worker) did not come back" }
        let taken = table.takeForCommit(at: clock.monotonic, keepingBack: 0.5, evenIfEmpty: false)
        let writes = try #require(taken)
        #expect(
            writes.releases.map(\.lease.token) == ["old-2"] && writes.leases.isEmpty,
            "adopted leases are written already"
        )
        #expect(table.isEmpty)
    }
}
