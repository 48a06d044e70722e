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
import Prometheus
import Synchronization

/// The metrics `/metrics` reads from the catalog at each scrape (the coordinator's own
/// come through swift-metrics as they happen): tasks by kind and state, paused kinds, each
/// connected worker's heartbeat age, and the build.
final class CatalogGauges: Sendable {
    static let help: [String: String] = [
        "photomill_tasks":
            "Tasks in the catalog, by kind and state (pending includes tasks backing off before a retry).",
        "photomill_kind_paused": "1 while an operator has paused the kind (photomill pause), else 0.",
        "photomill_worker_heartbeat_age_seconds":
            "Seconds since the coordinator last heard from each connected worker, as the catalog records it (at least once a heartbeat interval).",
        "photomill_build_info": "Always 1; the version label is the photomill release serving the metrics.",
    ]

    private let registry: MetricsRegistry
    private let tasks: [Kind: [TaskState: Gauge]]
    private let paused: [Kind: Gauge]
    /// Each connected worker's heartbeat age; the gauges themselves are thread-safe.
    private let heartbeats = Mutex<[WorkerKey: Gauge]>([:])

    private struct WorkerKey: Hashable {
        var id: String
        var host: String
    }

    init(registry: MetricsRegistry) {
        self.registry = registry
        let prometheus = registry.registry
        tasks = Dictionary(
            uniqueKeysWithValues: Kind.allCases.map { kind in
                (
                    kind,
                    Dictionary(
                        uniqueKeysWithValues: TaskState.allCases.map { state in
                            (
                                state,
                                prometheus.makeGauge(
                                    descriptor: registry.descriptor("photomill_tasks"),
                                    labels: [("kind", kind.rawValue), ("state", state.rawValue)]
                                )
                            )
                        }
                    )
                )
            }
        )
        paused = Dictionary(
            uniqueKeysWithValues: Kind.allCases.map { kind in
                (
                    kind,
                    prometheus.makeGauge(
                        descriptor: registry.descriptor("photomill_kind_paused"),
                        labels: [("kind", kind.rawValue)]
                    )
                )
            }
        )
        prometheus.makeGauge(
            descriptor: registry.descriptor("photomill_build_info"),
            labels: [("version", PhotomillVersion.number)]
        )
        .set(1.0)
    }

    func update(_ figures: CatalogFigures) {
        for (kind, byState) in tasks {
            for (state, gauge) in byState { gauge.set(Int64(figures.count(kind, state))) }
        }
        for (kind, gauge) in paused { gauge.set(figures.paused[kind] == nil ? 0.0 : 1.0) }
        heartbeats.withLock { heartbeats in
            var current: Set<WorkerKey> = []
            for worker in figures.workers {
                let key = WorkerKey(id: worker.id, host: worker.host)
                current.insert(key)
                let gauge =
                    heartbeats[key]
                    ?? registry.registry.makeGauge(
                        descriptor: registry.descriptor("photomill_worker_heartbeat_age_seconds"),
                        labels: [("worker", worker.id), ("host", worker.host)]
                    )
                heartbeats[key] = gauge
                gauge.set(max(0, figures.readAt - worker.lastSeen))
            }
            // A worker that left leaves the exposition, or its last age would stay for ever.
            for (key, gauge) in heartbeats where !current.contains(key) {
                registry.registry.unregisterGauge(gauge)
                heartbeats[key] = nil
            }
        }
    }
}
