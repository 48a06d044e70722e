import Catalog
@testable import Coordinator
import Foundation
import MillProtocol
import PhotomillCore
import PhotomillTestSupport
import Testing

@Suite("Scheduler: workers arriving, leaving, refused, and the shutdown")
struct WorkerLifecycleTests {
    @Test("a worker reconnecting under a new routing id keeps its jobs and their credits")
    func reconnectKeepsLeases() throws {
        var h = Harness()
        h.pending = photos(2, kinds: [.hash])
        h.connect("w1", slots: 2)
        h.turn()
        let orders = h.jobs(to: "w1")
        let newPeer = Data("w1#2".utf8)
        let hello = WorkerHello(workerId: "w1", host: "host-w1", slots: 2, kinds: [.hash], ocrLanguages: [], pathRoots: ["/"])
        h.run(h.scheduler.ready(hello, from: newPeer, key: nil, keyAllowed: true, at: h.clock.now))
        #expect(h.scheduler.sessions[Harness.peer("w1")] == nil)
        #expect(h.scheduler.sessions[newPeer]?.holding == Set(orders.map(\.token)))
        h.run(h.scheduler.received(.result(jobID: orders[0].jobID, token: orders[0].token,
                                           reports: [KindReport(kind: .hash, outcome: .hash(md5: "m", sha256: "s"), recipe: "hash/1")]),
                                   from: newPeer, at: h.clock.now))
        h.commitAll()
        #expect(h.results.map(\.result.leaseToken) == [orders[0].token])
        #expect(h.scheduler.sessions[newPeer]?.credit == 1)
    }

    @Test("an unregistered connection is asked to start over, not counted; a second READY on one connection is counted")
    func strangers() {
        var h = Harness()
        // What a worker's socket delivers by itself after a coordinator restart (libzmq
        // reconnects and sends what it had queued): PROTOCOL.md's answer, and no violation.
        h.send(.heartbeat, from: "nobody")
        h.send(.disconnect, from: "nobody")
        #expect(h.disconnects(to: "nobody") == ["not registered"])
        #expect(h.scheduler.violationCounts.isEmpty)
        h.connect("w1")
        h.connect("w1")
        #expect(h.scheduler.violationCounts == ["duplicate-ready": 1])
        h.send(.unexpected(.job), from: "w1")
        #expect(h.scheduler.violationCounts["unexpected-command"] == 1)
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
        #expect(h.disconnects(to: "w1") == ["key not allowed"] && h.disconnects(to: "w2").isEmpty)
        h.commitAll()
        #expect(h.releases.map(\.lease.token) == h.jobs(to: "w1").map(\.token))
        #expect(held.count == 1)
        // And its READY on a new connection, admitted at the handshake before the reload:
        h.connect("w1", key: "key-1", keyAllowed: false)
        #expect(h.disconnects(to: "w1") == ["key not allowed", "key not allowed"])
        #expect(h.scheduler.violationCounts["key-not-allowed"] == 1)
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
        #expect(h.waits?[.hash] == "no worker connected")
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
        #expect(h.disconnects(to: "w1") == ["coordinator stopping"] && h.disconnects(to: "w2") == ["coordinator stopping"])
        #expect(h.releases.count == 2 && h.releases.allSatisfy { $0.reason == .shutdown })
        #expect(Set(h.results.map(\.result.leaseToken)) == [first.token], "what came in is committed")
        #expect(h.commits.flatMap(\.workers).filter { $0.state == .gone }.count == 2)
    }
}
