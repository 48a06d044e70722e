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
import MetricsTestKit
import MillProtocol
import PhotomillCore
import PhotomillTestSupport
import Testing

@testable import Coordinator

/// `CoordinatorMetrics` against swift-metrics' test backend: what each event adds, counted
/// by hand from the batch it is given.
@Suite("Coordinator metrics")
struct MetricsTests {
    @Test("a committed batch counts each result once, by kind and outcome; the commit's time is recorded")
    func committedResults() throws {
        let backend = TestMetrics()
        let metrics = CoordinatorMetrics(factory: backend)
        var batch = CommitBatch()
        func result(_ photo: Int64, _ kind: Kind, _ token: String, _ outcome: TaskOutcome) -> ReportedResult {
            ReportedResult(
                result: TaskResult(photoId: photo, kind: kind, leaseToken: token, outcome: outcome, recipe: "r"),
                worker: "w",
                startedAt: 0,
                endedAt: 1
            )
        }
        let failure = TaskOutcome.failure(errorClass: .corrupt, message: "bad", retryable: false)
        batch.results = [
            result(1, .hash, "a", .hash(md5: "m", sha256: "s")), result(1, .metadata, "a", .metadata(PhotoMetadata())),
            result(2, .hash, "b", failure), result(3, .hash, "c", .hash(md5: "m", sha256: "s")),
        ]
        var report = CommitReport()
        report.committed = ["a", "b"]
        report.stale = ["c"]
        metrics.committed(batch, report, seconds: 0.004)
        let total = { (kind: String, outcome: String) in
            backend.counterTotal(label: "photomill_results_total", dimensions: [("kind", kind), ("outcome", outcome)])
        }
        #expect(total("hash", "done") == 1 && total("hash", "failed") == 1 && total("hash", "stale") == 1)
        #expect(total("metadata", "done") == 1 && total("metadata", "failed") == 0)
        #expect(try backend.expectTimer("photomill_commit_duration_seconds").values == [4_000_000])
    }

    @Test("the scheduler's counts are published as increments, never twice; its gauges as they are")
    func observedScheduler() throws {
        let backend = TestMetrics()
        let metrics = CoordinatorMetrics(factory: backend)
        var h = Harness()
        h.pending = photos(10, kinds: [.hash])
        h.connect("w", slots: 3)
        h.turn()
        h.scheduler.counts.leaseExpirations = 2
        h.run(h.scheduler.reject(Data("x".utf8), .malformedBody, detail: "", at: h.clock.now))
        metrics.observe(h.scheduler, at: h.clock.monotonic)
        h.scheduler.counts.leaseExpirations = 5
        h.run(h.scheduler.reject(Data("x".utf8), .malformedBody, detail: "", at: h.clock.now))
        metrics.observe(h.scheduler, at: h.clock.monotonic + 0.1)  // within a quarter second: not published
        metrics.observe(h.scheduler, at: h.clock.monotonic + 0.3)
        #expect(backend.counterTotal(label: "photomill_lease_expirations_total") == 5)
        #expect(
            backend.counterTotal(label: "photomill_messages_dropped_total", dimensions: [("reason", "malformed-body")])
                == 2
        )
        #expect(try backend.expectGauge("photomill_leases").lastValue == 3)
        #expect(try backend.expectGauge("photomill_worker_slots").lastValue == 3)
        #expect(try backend.expectGauge("photomill_jobs_ready").lastValue == 7)
    }
}
