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

/// An operator steering a running coordinator over a large queue (issue 15): how long
/// from `prioritize` to the folder's first JOB at a worker, and from `pause` to the last
/// JOB of the paused kind, with echo workers draining `tasks` pending hash tasks. The
/// catalog is written as the CLI writes it (`Catalog.prioritize`, `Catalog.pause`, on a
/// connection of their own); times are taken where the JOBs arrive.
struct SteeringBench {
    var tasks: Int
    var workers: Int
    var slots: Int
    var endpoint: String

    struct Figures {
        var pendingAtStart: Int
        var pendingAtPrioritize: Int
        /// From the command's return to the folder's first JOB.
        var prioritizeSeconds: Double
        /// The command itself (its write waits for the committer's).
        var prioritizeCommandSeconds: Double
        /// From the command's return to the last JOB of the paused kind.
        var pauseSeconds: Double
        var pauseCommandSeconds: Double
        var jobsAfterPause: Int
    }

    /// JOBs as they arrive, by path.
    final class JobLog: @unchecked Sendable {
        // @unchecked: `arrivals` is guarded by `lock`.
        private let lock = NSLock()
        private var arrivals: [(path: String, at: MonotonicInstant)] = []
        func record(_ path: String) { lock.withLock { arrivals.append((path, .now())) } }
        func times(after start: MonotonicInstant, where matches: (String) -> Bool = { _ in true }) -> [MonotonicInstant]
        {
            lock.withLock { arrivals.filter { $0.at >= start && matches($0.path) }.map(\.at) }
        }
    }

    func run(in directory: URL) throws -> Figures {
        guard tasks >= 20_000 else { throw BenchError("--steering-tasks must be at least 20000") }
        let catalog = try pendingHashCatalog(tasks: tasks, at: directory.appendingPathComponent("steering.sqlite"))
        // The folder: photos 1000-1099, /bench/10NN.jpg, of the first batch recorded, which
        // the queue's order (later scans' work first) leaves for last.
        let glob = "/bench/10[0-9][0-9].jpg"
        let inFolder = { (path: String) in path.hasPrefix("/bench/10") && path.count == "/bench/1000.jpg".count }

        var configuration = CoordinatorConfiguration(bind: [endpoint], roots: [], kinds: [.hash])
        configuration.exitWhenDone = true
        var logger = Logger(label: "bench.steering")
        logger.logLevel = .error
        let bound = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var endpoints: [String] = []
        let service = CoordinatorService(
            configuration: configuration,
            catalog: catalog,
            hooks: .init(bound: {
                endpoints = $0
                bound.signal()
            }),
            logger: logger
        )
        let coordinator = OwnedThread(name: "pm-coordinator") { () -> (any Error)? in
            do {
                _ = try service.serve()
                return nil
            } catch {
                bound.signal()
                return error
            }
        }
        bound.wait()
        if endpoints.isEmpty { throw coordinator.join() ?? BenchError("the coordinator bound no endpoint") }

        // The operator's commands come on a connection of their own, as from the CLI.
        let operatorCatalog = try Catalog(path: catalog.path)
        let log = JobLog()
        let context = try ZMQContext()
        let echoes = (0..<workers).map { EchoWorker(endpoint: endpoints[0], id: "steer-\($0)", slots: slots) }
        for echo in echoes {
            echo.onJob = { log.record($0) }
            echo.start(context: context)
        }
        Thread.sleep(forTimeInterval: 1)
        let pendingAtPrioritize = try operatorCatalog.status().count(.hash, .pending)
        // From the command's return: its own write waits for the committer's transaction.
        let calling = MonotonicInstant.now()
        _ = try operatorCatalog.prioritize(pathGlob: glob, now: WallClock.now())
        let prioritized = MonotonicInstant.now()
        Thread.sleep(forTimeInterval: 3)
        let first = log.times(after: calling, where: inFolder).min()

        let pausing = MonotonicInstant.now()
        try operatorCatalog.pause([.hash], reason: "bench", now: WallClock.now())
        let paused = MonotonicInstant.now()
        Thread.sleep(forTimeInterval: 2.5)
        let afterPause = log.times(after: paused)
        try operatorCatalog.resume([.hash])

        if let failure = coordinator.join() { throw failure }
        for echo in echoes { try echo.join() }
        guard let first else {
            throw BenchError("no job of the prioritized folder came within 3 s of the command's return")
        }
        return Figures(
            pendingAtStart: tasks,
            pendingAtPrioritize: pendingAtPrioritize,
            prioritizeSeconds: first - prioritized,
            prioritizeCommandSeconds: prioritized - calling,
            pauseSeconds: (afterPause.max() ?? paused) - paused,
            pauseCommandSeconds: paused - pausing,
            jobsAfterPause: afterPause.filter { $0 - paused >= 0.5 }.count
        )
    }
}
