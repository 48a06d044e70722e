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

import CoreMetrics
import Foundation
import MillProtocol
import PhotomillCore
import Synchronization

/// What the coordinator counts for `/metrics` (docs/operations.md, "Metrics"), through
/// swift-metrics: each handle is made once, here, from the factory the executable passes
/// in (the dashboard's Prometheus registry), so an event costs an array lookup and an
/// atomic add (a histogram takes an uncontended lock). The loop and the committer call one
/// method per event; what the scheduler counts itself (leases expired, workers lost,
/// messages dropped) and its gauges are published from its state four times a second.
public final class CoordinatorMetrics: Sendable {

    /// HELP text of every metric the coordinator emits, by name.
    public static let help: [String: String] = [
        "photomill_results_total":
            "Task results committed to the catalog, by kind and outcome (done; failed: the attempt failed, retried or final; stale: its lease was taken back, discarded).",
        "photomill_processing_seconds": "Time a worker spent on one kind of one photo, as the worker measured it.",
        "photomill_commit_duration_seconds": "Time one catalog transaction of a batch of results took.",
        "photomill_jobs_ready":
            "Jobs paged from the catalog and waiting for a worker's credit (at most 1024 per tier).",
        "photomill_leases": "Jobs out at workers (leases held).",
        "photomill_workers_connected": "Workers connected to the coordinator.",
        "photomill_worker_slots": "Slots (jobs at once) of the connected workers, together.",
        "photomill_lease_expirations_total": "Leases taken back because their job ran past its deadline.",
        "photomill_workers_lost_total":
            "Workers dropped after falling silent for their liveness window (or removed from the allow-list).",
        "photomill_messages_dropped_total": "Messages dropped as malformed, unexpected or from a stranger, by reason.",
        "photomill_file_bytes_sent_total":
            "Bytes of photo files and sidecars sent to workers that cannot read the path.",
    ]

    /// Bucket bounds in seconds, by histogram name: a thumbnail takes 0.05-0.5 s, OCR seconds.
    public static let buckets: [String: [Double]] = [
        "photomill_processing_seconds": [
            0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120,
        ],
        "photomill_commit_duration_seconds": [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    ]

    /// `photomill_results_total`'s outcome label.
    enum Outcome: Int, CaseIterable {
        case done, failed, stale

        var label: String {
            switch self {
            case .done: "done"
            case .failed: "failed"
            case .stale: "stale"
            }
        }
    }

    private let factory: any MetricsFactory
    /// By kind (`KindDescriptor.index`), then outcome (in `Outcome.allCases` order).
    private let results: [[Counter]]
    private let processing: [CoreMetrics.Timer]
    private let commitDuration: CoreMetrics.Timer
    private let jobsReady: Gauge
    private let leases: Gauge
    private let workersConnected: Gauge
    private let workerSlots: Gauge
    private let leaseExpirations: Counter
    private let workersLost: Counter
    private let fileBytesSent: Counter
    /// What `observe` published (only the loop's thread calls it: the lock is never contended).
    private let published = Mutex(Published())

    private struct Published {
        var counts = SchedulerCounts()
        var dropped: [ProtocolViolation.Reason: Int] = [:]
        var droppedCounters: [ProtocolViolation.Reason: Counter] = [:]
        var next = MonotonicInstant.distantPast
    }

    public init(factory: any MetricsFactory) {
        self.factory = factory
        results = Kind.allCases.map { kind in
            Outcome.allCases.map { outcome in
                Counter(
                    label: "photomill_results_total",
                    dimensions: [("kind", kind.rawValue), ("outcome", outcome.label)],
                    factory: factory
                )
            }
        }
        processing = Kind.allCases.map {
            CoreMetrics.Timer(
                label: "photomill_processing_seconds",
                dimensions: [("kind", $0.rawValue)],
                factory: factory
            )
        }
        commitDuration = CoreMetrics.Timer(label: "photomill_commit_duration_seconds", factory: factory)
        jobsReady = Gauge(label: "photomill_jobs_ready", factory: factory)
        leases = Gauge(label: "photomill_leases", factory: factory)
        workersConnected = Gauge(label: "photomill_workers_connected", factory: factory)
        workerSlots = Gauge(label: "photomill_worker_slots", factory: factory)
        leaseExpirations = Counter(label: "photomill_lease_expirations_total", factory: factory)
        workersLost = Counter(label: "photomill_workers_lost_total", factory: factory)
        fileBytesSent = Counter(label: "photomill_file_bytes_sent_total", factory: factory)
    }

    /// The workers' own time for each kind of a RESULT (`processing_us`; 0, from a worker
    /// that does not say, is not recorded).
    func processed(_ results: [Photomill_V1_KindResult]) {
        for entry in results where entry.processingUs > 0 {
            guard let kind = Kind(entry.kind) else { continue }
            processing[kind.descriptor.index].recordNanoseconds(Int64(entry.processingUs) * 1000)
        }
    }

    /// Bytes of a file (and sidecar) sent as blob frames.
    func sent(_ frames: [Data]) {
        fileBytesSent.increment(by: frames.reduce(0) { $0 + $1.count })
    }

    /// A batch the committer wrote, and how long its transaction took (on its thread).
    func committed(_ batch: CommitBatch, _ report: CommitReport, seconds: Double) {
        commitDuration.recordNanoseconds(Int64(seconds * 1e9))
        let outcomes = Outcome.allCases.count
        var counts = [Int](repeating: 0, count: results.count * outcomes)
        for reported in batch.results {
            let outcome: Outcome
            if report.stale.contains(reported.result.leaseToken) {
                outcome = .stale
            } else if case .failure = reported.result.outcome {
                outcome = .failed
            } else {
                outcome = .done
            }
            counts[reported.result.kind.descriptor.index * outcomes + outcome.rawValue] += 1
        }
        for (index, count) in counts.enumerated() where count > 0 {
            results[index / outcomes][index % outcomes].increment(by: count)
        }
    }

    /// The scheduler's gauges and counts, at most four times a second (on the loop's thread).
    func observe(_ scheduler: Scheduler, at now: MonotonicInstant) {
        published.withLock { published in
            guard now >= published.next else { return }
            published.next = now + 0.25
            jobsReady.record(scheduler.queues.jobCount)
            leases.record(scheduler.leases.count)
            workersConnected.record(scheduler.workers.count)
            workerSlots.record(scheduler.workers.all.reduce(0) { $0 + $1.workingSlots })
            let counts = scheduler.counts
            leaseExpirations.increment(by: counts.leaseExpirations - published.counts.leaseExpirations)
            workersLost.increment(by: counts.workersLost - published.counts.workersLost)
            published.counts = counts
            let violations = scheduler.violationCounts
            guard violations != published.dropped else { return }
            for (reason, count) in violations where count != published.dropped[reason] {
                let counter =
                    published.droppedCounters[reason]
                    ?? Counter(
                        label: "photomill_messages_dropped_total",
                        dimensions: [("reason", reason.rawValue)],
                        factory: factory
                    )
                published.droppedCounters[reason] = counter
                counter.increment(by: count - (published.dropped[reason] ?? 0))
            }
            published.dropped = violations
        }
    }
}
