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
import Logging
import MillProtocol
import PhotomillCore
import Testing

@testable import Worker

@Suite("Worker state machine")
struct WorkerStateMachineTests {
    typealias Machine = WorkerStateMachine

    static func machine() -> Machine {
        Machine(
            configuration: .init(workerId: "w"),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
    }

    var now = MonotonicInstant(nanoseconds: 5_000_000_000_000)

    /// Ticks every 100 ms for `seconds`; returns every action, with when it came.
    mutating func run(
        _ machine: inout Machine,
        for seconds: Double,
        heard: Bool = false
    ) -> [(at: Double, action: Machine.Action)] {
        var actions: [(Double, Machine.Action)] = []
        let start = now
        for _ in 0..<Int((seconds * 10).rounded()) {
            now += 0.1
            if heard { machine.heartbeatReceived(at: now) }
            actions += machine.tick(at: now).map { ((now - start), $0) }
        }
        return actions
    }

    static func job(_ id: String, deadline: Double = 60) -> Machine.JobArrival {
        Machine.JobArrival(jobID: id, token: "token-" + id, kinds: [.hash], deadline: deadline)
    }

    /// Job `id`'s outcome, its frames standing for the encoding a slot made.
    static func finished(_ id: String) -> Machine.Finished {
        Machine.Finished(jobID: id, frames: [Data(id.uppercased().utf8)])
    }

    static func sends(_ actions: [Machine.Action]) -> [Machine.Outbound] {
        actions.compactMap { if case .send(let outbound) = $0 { outbound } else { nil } }
    }

    @Test("a connection starts with READY under a new routing id")
    mutating func start() {
        var machine = Self.machine()
        #expect(machine.start(at: now) == [.connect(routingId: Data("w#1".utf8)), .send(.ready)])
        #expect(machine.start(at: now) == [], "once")
    }

    @Test("silence for three intervals closes the connection; reconnects back off 1, 2, 4 … 32 s and reset once heard")
    mutating func backoff() {
        var machine = Self.machine()
        _ = machine.start(at: now)
        var closes: [Double] = []
        var connects: [(at: Double, id: String)] = []
        var elapsed = 0.0
        for _ in 0..<9 {
            for (at, action) in run(&machine, for: 40) {
                switch action {
                case .close(let reason, let wait):
                    #expect(reason == .silent)
                    closes.append(wait)
                case .connect(let id):
                    connects.append((elapsed + at, String(decoding: id, as: UTF8.self)))
                default: break
                }
            }
            elapsed += 40
        }
        #expect(closes.prefix(8) == [1, 2, 4, 8, 16, 32, 32, 32])
        #expect(connects.map(\.id).prefix(3) == ["w#2", "w#3", "w#4"])
        // The first close comes after 3.1 s of silence, the reconnect 1 s later.
        #expect(connects.first.map { abs($0.at - 4.1) < 0.05 } == true)

        // Heard on the next connection: its silence backs off 1 s again.
        while true {
            if case .connected = machine.state { break }
            _ = run(&machine, for: 0.1)
        }
        machine.heartbeatReceived(at: now)
        let next = run(&machine, for: 5).compactMap { if case .close(_, let wait) = $0.action { wait } else { nil } }
        #expect(next == [1])
    }

    @Test("every result not yet ACKed goes out again, in order, on the next connection")
    mutating func resendAfterReconnect() {
        var machine = Self.machine()
        _ = machine.start(at: now)
        #expect(machine.jobArrived(Self.job("a"), at: now) == .run)
        #expect(machine.jobArrived(Self.job("b"), at: now) == .run)
        #expect(machine.jobArrived(Self.job("c"), at: now) == .run)
        #expect(Self.sends(machine.jobsFinished([Self.finished("b")], at: now)) == [.results([Self.finished("b")])])
        _ = machine.jobsFinished([Self.finished("a")], at: now)
        machine.acknowledged(["b"], at: now)
        // The coordinator goes silent; c finishes during the backoff.
        _ = run(&machine, for: 3.2)
        guard case .backoff = machine.state else {
            Issue.record("not backing off: \(machine.state)")
            return
        }
        #expect(machine.jobsFinished([Self.finished("c")], at: now) == [], "held for the next connection")
        let reconnect = run(&machine, for: 1).map(\.action)
        #expect(
            reconnect == [
                .connect(routingId: Data("w#2".utf8)), .send(.ready),
                .send(.results([Self.finished("a"), Self.finished("c")])),
            ]
        )
        #expect(machine.unacknowledgedCount == 2)
    }

    @Test("results finished while the loop was busy go out together, in order; nothing waits for more")
    mutating func resultsTogether() {
        var machine = Self.machine()
        _ = machine.start(at: now)
        for id in ["a", "b", "c", "d"] { _ = machine.jobArrived(Self.job(id), at: now) }
        #expect(
            machine.jobsFinished([Self.finished("b"), Self.finished("a"), Self.finished("c")], at: now)
                == [.send(.results([Self.finished("b"), Self.finished("a"), Self.finished("c")]))]
        )
        #expect(machine.jobsFinished([], at: now) == [], "no empty message")
        // The next one goes alone, at once: no timer holds a result back for company.
        now += 0.001
        #expect(machine.jobsFinished([Self.finished("d")], at: now) == [.send(.results([Self.finished("d")]))])
        #expect(machine.unacknowledgedCount == 4)
        machine.acknowledged(["a", "b", "c", "d"], at: now)
        #expect(machine.unacknowledgedCount == 0)
    }

    @Test("results whose ACK is overdue go again together, each ten intervals after it was sent")
    mutating func overdueTogether() {
        var machine = Self.machine()
        _ = machine.start(at: now)
        for id in ["a", "b", "c"] { _ = machine.jobArrived(Self.job(id), at: now) }
        _ = machine.jobsFinished([Self.finished("a"), Self.finished("b")], at: now)
        now += 5
        _ = machine.jobsFinished([Self.finished("c")], at: now)
        let again = run(&machine, for: 12, heard: true).compactMap { entry -> (Double, [String])? in
            if case .send(.results(let finished)) = entry.action { return (entry.at, finished.map(\.jobID)) }
            return nil
        }
        // a and b were sent at 0, c at 5: overdue past 10 s and 15 s.
        #expect(again.map(\.1) == [["a", "b"], ["c"]])
        #expect(zip(again.map(\.0), [5.1, 10.1]).allSatisfy { abs($0 - $1) < 0.01 }, "\(again)")
    }

    @Test("EXTEND goes out when half the deadline passed, and again every half deadline")
    mutating func extend() {
        var machine = Self.machine()
        _ = machine.start(at: now)
        _ = machine.jobArrived(Self.job("slow", deadline: 4), at: now)
        let extends = run(&machine, for: 9, heard: true).filter {
            if case .send(.extend(let id, let token, let kinds, let extra)) = $0.action {
                return id == "slow" && token == "token-slow" && kinds == [.hash] && extra == 4
            }
            return false
        }.map(\.at)
        // Past 2 s (strictly), then 2 s after each.
        #expect(extends.count == 4)
        #expect(zip(extends, [2.1, 4.2, 6.3, 8.4]).allSatisfy { abs($0 - $1) < 0.01 }, "\(extends)")
    }

    @Test("HEARTBEAT only after an interval in which nothing else went out")
    mutating func heartbeatOnlyWhenIdle() {
        var machine = Self.machine()
        _ = machine.start(at: now)
        let idle = run(&machine, for: 3, heard: true).filter { $0.action == .send(.heartbeat) }.map(\.at)
        #expect(idle.count == 3)
        var busy = 0
        for index in 0..<30 {
            now += 0.1
            machine.heartbeatReceived(at: now)
            _ = machine.jobArrived(Self.job("j\(index)"), at: now)
            _ = machine.jobsFinished([.init(jobID: "j\(index)", frames: [Data()])], at: now)
            busy += machine.tick(at: now).filter { $0 == .send(.heartbeat) }.count
        }
        #expect(busy == 0)
    }

    @Test("a result whose ACK is ten intervals late goes out again")
    mutating func overdue() {
        var machine = Self.machine()
        _ = machine.start(at: now)
        _ = machine.jobArrived(Self.job("a"), at: now)
        _ = machine.jobsFinished([Self.finished("a")], at: now)
        let again = run(&machine, for: 12, heard: true).filter { $0.action == .send(.results([Self.finished("a")])) }
            .map(\.at)
        #expect(again.count == 1 && again.first.map { abs($0 - 10.1) < 0.01 } == true, "\(again)")
        machine.acknowledged(["a"], at: now)
        #expect(
            run(&machine, for: 12, heard: true).allSatisfy {
                if case .send(.results) = $0.action { false } else { true }
            }
        )
    }

    @Test("stopping: new JOBs are handed back, the jobs in hand finish and are ACKed, then DISCONNECT")
    mutating func drain() {
        var machine = Self.machine()
        _ = machine.start(at: now)
        _ = machine.jobArrived(Self.job("a"), at: now)
        #expect(machine.stop(at: now) == [.closeQueue])
        #expect(
            machine.jobArrived(Self.job("late"), at: now) == .refuse(.send(.refuse(jobID: "late", token: "token-late")))
        )
        #expect(run(&machine, for: 1).isEmpty, "still working on a")
        #expect(Self.sends(machine.jobsFinished([Self.finished("a")], at: now)) == [.results([Self.finished("a")])])
        #expect(run(&machine, for: 1).isEmpty, "waiting for the ACK")
        #expect(
            machine.disconnectReceived(reason: "coordinator stopping", at: now) == [],
            "a draining worker keeps waiting"
        )
        machine.acknowledged(["a"], at: now)
        #expect(run(&machine, for: 0.1).map(\.action) == [.send(.disconnect(reason: "worker-stopping")), .finish])
        #expect(machine.state == .finished)
    }

    @Test("the drain is bounded; a worker between connections stops at once")
    mutating func drainBounds() {
        var machine = Self.machine()
        _ = machine.start(at: now)
        _ = machine.jobArrived(Self.job("stuck"), at: now)
        _ = machine.stop(at: now)
        let ended = run(&machine, for: 31).filter { $0.action == .finish }.map(\.at)
        #expect(ended.count == 1 && ended.first.map { abs($0 - 30) < 0.01 } == true, "\(ended)")

        var between = Self.machine()
        _ = between.start(at: now)
        _ = run(&between, for: 3.5)
        #expect(between.stop(at: now) == [.closeQueue, .finish])
    }

    @Test("DISCONNECT from the coordinator closes the connection and reconnects after the backoff")
    mutating func disconnect() {
        var machine = Self.machine()
        _ = machine.start(at: now)
        #expect(
            machine.disconnectReceived(reason: "unknown worker: send READY", at: now) == [
                .close(.disconnected, retryIn: 1)
            ]
        )
        let next = run(&machine, for: 1.5).map(\.action)
        #expect(next.first == .connect(routingId: Data("w#2".utf8)))
    }

    @Test("malformed messages are counted by reason")
    mutating func malformed() {
        var machine = Self.machine()
        _ = machine.start(at: now)
        machine.rejected(.wrongSignature, detail: "x", at: now)
        machine.rejected(.wrongSignature, detail: "x", at: now)
        machine.rejected(.unexpectedCommand, detail: "READY", at: now)
        #expect(machine.violations == [.wrongSignature: 2, .unexpectedCommand: 1])
    }
}
