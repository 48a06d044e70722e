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

@Suite("Scheduler: workers arriving, leaving, refused, and the shutdown")
struct WorkerLifecycleTests {
    @Test("a worker reconnecting under a new routing id keeps its jobs and their credits")
    func reconnectKeepsLeases() throws {
        var h = Harness()
        h.pending = photos(2, kinds: [.hash])
        h.connect("w1", slots: 2)
        h.turn()
        let orders = h.jobs(to: "w1")
        let newPeer = h.reconnect("w1", attempt: 2, slots: 2)
        #expect(h.session("w1") == nil)
        #expect(Set(h.scheduler.leases.entries.filter { $0.value.holder == newPeer }.keys) == Set(orders.map(\.token)))
        h.succeed(orders[0], fromPeer: newPeer)
        h.commitAll()
        #expect(h.results.map(\.result.leaseToken) == [orders[0].token])
        #expect(h.scheduler.workers[newPeer].map(h.scheduler.credit(of:)) == 1)
    }

    /// JOBs sent to a connection the worker had already left (a READY of an older socket
    /// delivered after the worker's newest) never reach it; their leases expire. Such a
    /// lease keeps its slot while its connection lives, but when the worker says READY on a
    /// new connection, the expired ones let go of its slots (a late answer is still taken),
    /// so the worker is not left with no credit and nothing to do.
    @Test("a worker's READY on a new connection frees the slots of its expired leases; its new jobs go there")
    func reReadyFreesExpiredLeases() throws {
        var h = Harness()
        h.pending = photos(4, kinds: [.hash])
        h.connect("w1", slots: 2)
        h.turn()
        let lost = h.jobs(to: "w1")
        #expect(lost.count == 2)
        // The worker never gets them; it goes on heartbeating until both leases expire.
        let deadline = h.scheduler.configuration.deadline(for: [.hash]) + 2 * 1
        h.pass(deadline + 1, step: 0.5) { $0.send(.heartbeat, from: "w1") }
        #expect(h.logs.filter { if case .leaseExpired = $0 { true } else { false } }.count == 2)
        #expect(h.credit("w1") == 0, "an expired lease keeps its slot while its connection lives")
        #expect(h.jobs(to: "w1").count == 2)

        let newPeer = h.reconnect("w1", attempt: 2, slots: 2)
        #expect(h.scheduler.workers[newPeer].map(h.scheduler.credit(of:)) == 2)
        #expect(lost.allSatisfy { !h.isOut($0.token) })
        h.turn()
        let fresh = h.jobs.filter { $0.peer == newPeer }.map(\.order)
        #expect(fresh.count == 2, "the slots go to work again, on the newest connection")
        #expect(h.jobs(to: "w1").count == 2, "nothing more to the connection it left")
        // A late answer to an expired job is still taken (the catalog then finds it stale),
        // and gives back no slot a second time.
        h.stale.insert(lost[0].token)
        h.succeed(lost[0], fromPeer: newPeer)
        h.commitAll()
        #expect(h.results.map(\.result.leaseToken) == [lost[0].token])
        #expect(h.scheduler.workers[newPeer].map(h.scheduler.credit(of:)) == 0)
        #expect(h.scheduler.violationCounts.isEmpty)
    }

    @Test("an unregistered connection is asked to start over, not counted; a second READY on one connection is counted")
    func strangers() {
        var h = Harness()
        // What a worker's socket delivers by itself after a coordinator restart (libzmq
        // reconnects and sends what it had queued): PROTOCOL.md's answer, and no violation.
        h.send(.heartbeat, from: "nobody")
        h.send(.disconnect, from: "nobody")
        #expect(h.disconnects(to: "nobody") == ["not-registered"])
        #expect(h.scheduler.violationCounts.isEmpty)
        h.connect("w1")
        h.connect("w1")
        #expect(h.scheduler.violationCounts == [.duplicateReady: 1])
        h.send(.unexpected(.job), from: "w1")
        #expect(h.scheduler.violationCounts[.unexpectedCommand] == 1)
    }

    @Test(
        "a READY is always answered (PROTOCOL.md, READY and DISCONNECT): a field outside its rules, an old or unset revision, an unset interval"
    )
    func readyAnswers() throws {
        var h = Harness()
        // Decoded as the service decodes it: a READY with slots 0 fails on that field.
        var spoiled = Photomill_V1_Ready()
        spoiled.workerID = "w1"
        spoiled.host = "h"
        spoiled.softwareVersion = "1"
        spoiled.protocolVersion = 3
        spoiled.slots = 0
        spoiled.kinds = [.hash]
        var violation: ProtocolViolation?
        do { _ = try MillCodec.decode(MillCodec.encode(.ready(spoiled))) } catch { violation = error }
        let refused = try #require(violation)
        h.run(h.scheduler.undecodable(refused, from: Harness.peer("w1"), at: h.clock.now))
        let reason = try #require(h.disconnects(to: "w1").first)
        #expect(reason.hasPrefix("invalid-field: slots: "), "\(reason)")
        #expect(h.scheduler.violationCounts == [.invalidField: 1])
        // Any other undecodable message is dropped unanswered.
        var result = Photomill_V1_Result()
        result.jobID = "j"
        do { _ = try MillCodec.decode(MillCodec.encode(.result(result, blobs: []))) } catch { violation = error }
        h.run(h.scheduler.undecodable(try #require(violation), from: Harness.peer("w2"), at: h.clock.now))
        #expect(h.disconnects(to: "w2").isEmpty)
        // An unset revision (0) is an old one, refused with its token.
        let old = WorkerHello(
            workerId: "w3",
            host: "h",
            slots: 1,
            kinds: [.hash],
            ocrLanguages: [],
            pathRoots: [],
            protocolVersion: 0
        )
        h.run(h.scheduler.ready(old, from: Harness.peer("w3"), key: nil, keyAllowed: true, at: h.clock.now))
        #expect(DisconnectReason(parsing: try #require(h.disconnects(to: "w3").first)).token == .oldProtocol)
        // A message from a connection nobody registered is logged (debug) and answered.
        h.send(.heartbeat, from: "nobody")
        #expect(h.logs.contains(.notRegistered(peer: Harness.peer("nobody"), command: .heartbeat)))
    }

    @Test("a key removed from the allow-list: the worker is told to go and loses its leases")
    func keyRemoved() throws {
        var h = Harness()
        h.pending = photos(1, kinds: [.hash])
        h.connect("w1", key: "key-1")
        h.connect("w2", key: "key-2")
        h.turn()
        let held = h.jobs(to: "w1") + h.jobs(to: "w2")
        h.run(h.scheduler.allowListChanged(allows: { $0 == "key-2" }, at: h.clock.now))
        #expect(h.disconnects(to: "w1") == ["key-not-allowed"] && h.disconnects(to: "w2").isEmpty)
        h.commitAll()
        #expect(h.releases.map(\.lease.token) == h.jobs(to: "w1").map(\.token))
        #expect(held.count == 1)
        // And its READY on a new connection, admitted at the handshake before the reload:
        h.connect("w1", key: "key-1", keyAllowed: false)
        #expect(h.disconnects(to: "w1") == ["key-not-allowed", "key-not-allowed"])
        #expect(h.scheduler.violationCounts[.keyNotAllowed] == 1)
    }

    @Test("DISCONNECT from a worker releases its leases at once, as a hand-back")
    func workerLeaves() throws {
        var h = Harness()
        h.pending = photos(1, kinds: [.hash])
        h.connect("w1")
        h.turn()
        h.send(.disconnect, from: "w1")
        h.commitAll()
        #expect(h.releases.map(\.reason) == [.shutdown])
        #expect(h.commits.flatMap(\.workers).last?.state == .gone)
        #expect(h.waits?[.hash] == .noWorkerConnected)
        #expect(h.commits.compactMap(\.waits).last?[.hash] == .noWorkerConnected, "written with the commit")
    }

    @Test("shutdown: every worker is told to go, and every job still out is handed back without an attempt")
    func shutdown() throws {
        var h = Harness()
        h.pending = photos(3, kinds: [.hash])
        h.connect("w1", slots: 2)
        h.connect("w2", slots: 1)
        h.turn()
        let first = try #require(h.jobs(to: "w1").first)
        h.succeed(first, from: "w1")
        #expect(h.scheduler.hasJobsOut)
        h.run(h.scheduler.shutdown(at: h.clock.now))
        #expect(!h.scheduler.hasJobsOut)
        h.commitAll()
        #expect(
            h.disconnects(to: "w1") == ["coordinator-stopping"] && h.disconnects(to: "w2") == ["coordinator-stopping"]
        )
        #expect(h.releases.count == 2 && h.releases.allSatisfy { $0.reason == .shutdown })
        #expect(Set(h.results.map(\.result.leaseToken)) == [first.token], "what came in is committed")
        #expect(h.commits.flatMap(\.workers).filter { $0.state == .gone }.count == 2)
    }
}
