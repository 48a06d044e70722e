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
import Coordinator
import Dashboard
import Foundation
import Logging
import PhotomillCore

/// The dashboard beside an in-process coordinator, as `photomill coordinator` runs it:
/// the coordinator's metrics in the registry, the server on a free loopback port, and the
/// load of an open page and a 1 s Prometheus scrape (`DashboardLoad`).
final class BenchDashboard: @unchecked Sendable {
    // @unchecked: `port` is written once by the server's callback before `init` returns
    // (the semaphore orders it); the rest is immutable.
    private let server: DashboardServer
    private let finished = DispatchSemaphore(value: 0)
    private var serving: Task<Void, Never>?
    private var load: DashboardLoad?
    private var port = 0

    /// The registry the coordinator's metrics go into (`CoordinatorService(metrics:)`).
    static func registry() -> MetricsRegistry {
        MetricsRegistry(help: CoordinatorMetrics.help, buckets: CoordinatorMetrics.buckets)
    }

    init(registry: MetricsRegistry, catalog: Catalog) throws {
        var logger = Logger(label: "bench.dashboard")
        // Stopping by cancellation logs the server's children as cancelled: not news here.
        logger.logLevel = .critical
        server = try DashboardServer(
            configuration: .init(address: HTTPAddress(host: "127.0.0.1", port: 0), token: nil, required: true),
            catalog: catalog,
            metrics: registry,
            views: Self.views,
            logger: logger
        )
        let listening = DispatchSemaphore(value: 0)
        server.onListening = { [self] address in
            port = address.port
            listening.signal()
        }
        serving = Task.detached { [server, finished] in
            try? await server.run()
            finished.signal()
        }
        guard listening.wait(timeout: .now() + 30) == .success else { throw BenchError("the dashboard never listened") }
        load = DashboardLoad(port: port)
    }

    /// Stops the load and the server; the /metrics times (seconds).
    func stop() throws -> [Double] {
        let scrapes = try load?.stop() ?? []
        serving?.cancel()
        finished.wait()
        return scrapes
    }

    /// JSON of the same size class as the CLI's (the executable's views are not in reach).
    private static let views = OperatorViews(
        status: { status in
            json(["photos": status.photos, "pending": status.total(.pending), "done": status.total(.done)])
        },
        workers: { status in json(["workers": status.workers.count]) },
        failed: { failures in json(["failed": failures.count]) },
        requeued: { counts, _ in json(["tasks": counts.values.reduce(0, +)]) },
        paused: { paused, _ in json(["paused": paused.count]) }
    )

    private static func json(_ value: [String: Int]) -> Data { (try? JSONEncoder().encode(value)) ?? Data() }
}

/// The coordinator's trivial-results rate with HTTP off and with the dashboard open and
/// /metrics scraped every second, alternated in one run (off, on, off, on, …).
struct DashboardBench {
    var tasks: Int
    var workers: Int
    var slots: Int
    var rounds: Int
    var endpoint: (String) -> String

    struct Figures {
        var off: [Double]
        var on: [Double]
        /// CPU of the coordinator's loop thread and of its committer per result (µs): what
        /// the rate is made of, and less moved than the rate by other processes' load.
        var loopMicrosOff: [Double] = []
        var loopMicrosOn: [Double] = []
        var committerMicrosOff: [Double] = []
        var committerMicrosOn: [Double] = []
        var scrapeSeconds: [Double]
    }

    func run(in directory: URL) throws -> Figures {
        var figures = Figures(off: [], on: [], scrapeSeconds: [])
        for round in 0..<rounds {
            for http in [false, true] {
                var bench = CoordinatorBench(
                    tasks: tasks,
                    workers: workers,
                    slots: slots,
                    endpoint: endpoint("dashboard-\(round)-\(http)")
                )
                bench.http = http
                let measured = try bench.run(
                    in: directory.appendingPathComponent("round-\(round)-\(http)", isDirectory: true)
                )
                let loop = measured.coordinatorCPUSeconds / Double(measured.committed) * 1e6
                let committer = (measured.threadCPUSeconds["pm-committer"] ?? 0) / Double(measured.committed) * 1e6
                if http {
                    figures.on.append(measured.perSecond)
                    figures.loopMicrosOn.append(loop)
                    figures.committerMicrosOn.append(committer)
                } else {
                    figures.off.append(measured.perSecond)
                    figures.loopMicrosOff.append(loop)
                    figures.committerMicrosOff.append(committer)
                }
                figures.scrapeSeconds += measured.scrapeSeconds
            }
        }
        return figures
    }
}
