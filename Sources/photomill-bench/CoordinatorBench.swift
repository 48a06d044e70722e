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
import Foundation
import Logging
import PhotomillCore
import ZeroMQ

/// The coordinator alone: a catalog of `tasks` pending hash tasks, an in-process
/// coordinator, and echo workers that answer every job at once. The rate is the number of
/// results the catalog committed (and ACKed) per second, from the first JOB to the last ACK.
struct CoordinatorBench {
    var tasks: Int
    var workers: Int
    var slots: Int
    var endpoint: String
    /// The dashboard on, opened and scraped (`BenchDashboard`).
    var http = false

    struct Figures {
        var committed: Int
        var seconds: Double
        var coordinatorCPUSeconds: Double
        /// CPU of the whole process (coordinator, libzmq's I/O threads, echo workers) over the run.
        var processCPUSeconds: Double
        /// CPU over the run by thread name (the coordinator's loop, its committer, the echo
        /// workers, libzmq's I/O threads).
        var threadCPUSeconds: [String: Double]
        /// How long each /metrics scrape took, with `http`.
        var scrapeSeconds: [Double] = []
        var perSecond: Double { Double(committed) / seconds }
    }

    func run(in directory: URL) throws -> Figures {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let catalog = try pendingHashCatalog(tasks: tasks, at: directory.appendingPathComponent("trivial.sqlite"))

        var configuration = CoordinatorConfiguration(bind: [endpoint], roots: [], kinds: [.hash])
        configuration.exitWhenDone = true
        var logger = Logger(label: "bench.coordinator")
        logger.logLevel = .error
        let bound = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var endpoints: [String] = []
        let registry = http ? BenchDashboard.registry() : nil
        let service = CoordinatorService(
            configuration: configuration,
            catalog: catalog,
            metrics: registry.map { CoordinatorMetrics(factory: $0) },
            hooks: .init(bound: {
                endpoints = $0
                bound.signal()
            }),
            logger: logger
        )
        let dashboard = try registry.map { try BenchDashboard(registry: $0, catalog: catalog) }
        let coordinator = OwnedThread(name: "pm-coordinator") { () -> (cpu: Double, failure: (any Error)?) in
            let before = threadCPUSeconds()
            do {
                _ = try service.serve()
            } catch {
                bound.signal()
                return (threadCPUSeconds() - before, error)
            }
            return (threadCPUSeconds() - before, nil)
        }
        bound.wait()
        if endpoints.isEmpty { throw coordinator.join().failure ?? BenchError("the coordinator bound no endpoint") }

        let processBefore = processCPUSeconds()
        let threadSampler = ThreadCPUSampler()
        threadSampler.start()
        let context = try ZMQContext()
        let echoes = (0..<workers).map { EchoWorker(endpoint: endpoints[0], id: "echo-\($0)", slots: slots) }
        for echo in echoes { echo.start(context: context) }
        let (cpu, failure) = coordinator.join()
        if let failure { throw failure }
        for echo in echoes { try echo.join() }
        let threads = threadSampler.stop()
        let scrapes = try dashboard?.stop() ?? []
        let processCPU = processCPUSeconds() - processBefore

        let done = try catalog.status().count(.hash, .done)
        guard done == tasks else { throw BenchError("the catalog has \(done) of \(tasks) hash tasks done") }
        guard let first = echoes.compactMap(\.firstJob).min(), let last = echoes.compactMap(\.lastAck).max() else {
            throw BenchError("the echo workers got no job or no ACK")
        }
        return Figures(
            committed: echoes.reduce(0) { $0 + $1.totalCommitted },
            seconds: last - first,
            coordinatorCPUSeconds: cpu,
            processCPUSeconds: processCPU,
            threadCPUSeconds: threads,
            scrapeSeconds: scrapes
        )
    }
}
