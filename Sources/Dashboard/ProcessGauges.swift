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
import Prometheus

/// The coordinator process's descriptors and the dashboard's connections, read at each
/// scrape: what a flood of connections takes shows here (the `process_*` names are the
/// Prometheus client libraries' own).
final class ProcessGauges: Sendable {
    static let help: [String: String] = [
        "process_open_fds": "Open file descriptors of the coordinator process.",
        "process_max_fds":
            "The coordinator process's open-file limit (the soft RLIMIT_NOFILE, raised to the hard one at start).",
        "photomill_http_connections": "HTTP connections the dashboard holds now.",
        "photomill_http_connections_limit":
            "HTTP connections the dashboard holds at most; more wait in the kernel's accept queue.",
    ]

    private let openDescriptors: Gauge
    private let maxDescriptors: Gauge
    private let connections: Gauge
    private let connectionsLimit: Gauge

    init(registry: MetricsRegistry) {
        let prometheus = registry.registry
        openDescriptors = prometheus.makeGauge(descriptor: registry.descriptor("process_open_fds"))
        maxDescriptors = prometheus.makeGauge(descriptor: registry.descriptor("process_max_fds"))
        connections = prometheus.makeGauge(descriptor: registry.descriptor("photomill_http_connections"))
        connectionsLimit = prometheus.makeGauge(descriptor: registry.descriptor("photomill_http_connections_limit"))
    }

    func update(_ budget: ConnectionBudget) {
        if let open = DescriptorLimit.openCount() { openDescriptors.set(Int64(open)) }
        maxDescriptors.set(Int64(DescriptorLimit.current.soft))
        connections.set(Int64(budget.count))
        connectionsLimit.set(Int64(budget.limit))
    }
}
