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

/// A step of the wall clock (NTP, a VM resumed, `date -s`) must move no deadline: the
/// scheduler measures leases, liveness and heartbeats on the monotonic clock, and the wall
/// clock only dates what is written down.
@Suite("Scheduler: wall-clock steps")
struct ClockStepTests {
    /// What a run of 20 s saw: a worker heartbeating every second, one job of a 10 s
    /// deadline, extended every 4 s and answered at 18 s; the wall clock steps by `step`
    /// at 4.5 s, between two heartbeats. `feed` makes the scheduler's time from the two clocks.
    struct Seen {
        var dropped: Bool
        var releases: [Release]
        var results: [ReportedResult]
        var leasedAt: Double?
        var wallAtStart: Double
    }

    static func scenario(step: Double, feed: (ManualClock) -> ClockReading) throws -> Seen {
        var h = Harness { configuration in
            for kind in Kind.allCases { configuration.deadlines[kind] = 10 }
        }
        let wallAtStart = h.clock.wall
        var dropped = false
        func turn(_ h: inout Harness) {
            let now = feed(h.clock)
            h.run(h.scheduler.tick(at: now))
            h.run(h.scheduler.dispatch(at: now))
            h.settle()
        }
        h.pending = photos(1, kinds: [.ocr])
        let hello = WorkerHello(
            workerId: "w1",
            host: "h",
            slots: 1,
            kinds: [.ocr],
            ocrLanguages: ["eng"],
            pathRoots: ["/"]
        )
        h.run(h.scheduler.ready(hello, from: Harness.peer("w1"), key: nil, keyAllowed: true, at: feed(h.clock)))
        turn(&h)
        let order = try #require(h.jobs(to: "w1").first)
        h.pending = []
        for tenth in 1...200 {
            h.clock.advance(0.1)
            if tenth == 45 { h.clock.stepWall(step) }
            let now = feed(h.clock)
            if tenth % 10 == 0 { h.run(h.scheduler.received(.heartbeat, from: Harness.peer("w1"), at: now)) }
            if tenth % 40 == 0 {
                h.run(
                    h.scheduler.received(
                        .extend(jobID: order.jobID, token: order.token, extraSeconds: 10),
                        from: Harness.peer("w1"),
                        at: now
                    )
                )
            }
            if tenth == 180 {
                let report = KindReport(
                    kind: .ocr,
                    outcome: .ocr(text: "t", confidence: 90, language: "eng"),
                    recipe: "ocr/1"
                )
                h.run(
                    h.scheduler.received(
                        .result(jobID: order.jobID, token: order.token, reports: [report]),
                        from: Harness.peer("w1"),
                        at: now
                    )
                )
            }
            turn(&h)
            if h.session("w1") == nil { dropped = true }
        }
        h.run(h.scheduler.flush(at: feed(h.clock)))
        h.settle()
        return Seen(
            dropped: dropped,
            releases: h.releases,
            results: h.results,
            leasedAt: h.commits.flatMap(\.leases).first?.leasedAt,
            wallAtStart: wallAtStart
        )
    }

    /// The service's feed: `ClockReading` takes each clock for what it is.
    static let honest: @Sendable (ManualClock) -> ClockReading = { $0.now }

    @Test("a step of the wall clock by ±1 hour drops no worker and expires no lease", arguments: [3600.0, -3600.0])
    func wallStep(step: Double) throws {
        let seen = try Self.scenario(step: step, feed: Self.honest)
        #expect(!seen.dropped, "the worker heartbeated every second")
        #expect(seen.releases.isEmpty, "the lease was extended in time: \(seen.releases.map(\.message))")
        #expect(seen.results.map(\.result.outcome) == [.ocr(text: "t", confidence: 90, language: "eng")])
        // What is written down is dated by the wall clock, step included.
        let result = try #require(seen.results.first)
        #expect(abs(result.endedAt - (seen.wallAtStart + 18 + step)) < 0.001)
        #expect(seen.leasedAt.map { abs($0 - seen.wallAtStart) < 0.001 } == true)
    }

    /// The same run with the scheduler given the wall clock for its deadlines (the service
    /// wired to `Date()`): the forward step expires the lease and drops the worker, the
    /// backward one hides a dead worker for an hour. This is the failure the test above
    /// guards against; if these expectations ever fail, the scenario no longer exercises it.
    @Test("given the wall clock, the same step drops the worker and expires its lease")
    func wallClockFedAsMonotonic() throws {
        let wallAsMonotonic: (ManualClock) -> ClockReading = { clock in
            ClockReading(monotonic: MonotonicInstant(nanoseconds: Int64(clock.wall * 1e9)), wall: clock.wall)
        }
        let forward = try Self.scenario(step: 3600, feed: wallAsMonotonic)
        #expect(forward.dropped)
        #expect(
            forward.releases.map(\.reason).contains(.leaseExpired)
                || forward.releases.map(\.reason).contains(.workerLost)
        )
        #expect(try Self.scenario(step: 3600, feed: Self.honest).releases.isEmpty)
    }
}
