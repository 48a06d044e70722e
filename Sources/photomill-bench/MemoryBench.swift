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
import ZeroMQ

/// The coordinator's memory against the catalog's size: `photomill coordinator` (a
/// process of its own) over catalogs of different sizes that each hold the same number
/// of pending tasks after a long history of done ones, answered by echo workers until
/// every pending task is done; then SIGTERM. Its peak RSS should not grow with the
/// catalog: it pages pending work and never loads the catalog.
struct MemoryBench {
    var photomill: String
    var sizes: [Int]
    var pending: Int
    var workers: Int
    var slots: Int

    struct Figures {
        var tasks: Int
        var catalogMB: Double
        var peakRSS: Double
        var seconds: Double
    }

    func run(in directory: URL) throws -> [Figures] {
        try sizes.map { size in try measure(tasks: size, in: directory) }
    }

    private func measure(tasks: Int, in directory: URL) throws -> Figures {
        let url = directory.appendingPathComponent("memory-\(tasks).sqlite")
        try makeCatalog(tasks: tasks, at: url)
        let coordinator = try CoordinatorProcess(photomill, catalog: url, name: "memory-\(tasks)", in: directory)

        let start = MonotonicInstant.now()
        let context = try ZMQContext()
        let echoes = (0..<workers).map {
            EchoWorker(endpoint: coordinator.endpoint, id: "memory-echo-\($0)", slots: slots)
        }
        for echo in echoes { echo.start(context: context) }
        let catalog = try Catalog(path: url.path)
        while try catalog.status().count(.hash, .done) < tasks {
            guard coordinator.isRunning else { throw BenchError("photomill coordinator exited mid-run") }
            usleep(100_000)
        }
        let seconds = MonotonicInstant.now() - start
        let peakRSS = try coordinator.stop()
        for echo in echoes { try echo.join() }
        withExtendedLifetime(context) {}
        let bytes = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        try? FileManager.default.removeItem(at: url)
        return Figures(tasks: tasks, catalogMB: Double(bytes) / 1e6, peakRSS: peakRSS, seconds: seconds)
    }

    /// `tasks` photos with a hash task each: all but the last `pending` done, with their
    /// hashes and an attempt each, as a long history leaves them.
    private func makeCatalog(tasks: Int, at url: URL) throws {
        _ = try pendingHashCatalog(tasks: tasks, at: url)
        let last = tasks - pending
        // States changed behind the catalog's back: its counts (docs/catalog.md,
        // task_counts) are made again, or the coordinator and the wait below would go by
        // the old ones.
        try PythonSQLite.execute(
            url.path,
            """
            UPDATE photos SET md5 = printf('%032x', id), sha256 = printf('%064x', id) WHERE id <= \(last);
            UPDATE tasks SET state = 'done', attempts = 1, recipe = 'echo' WHERE photoId <= \(last);
            INSERT INTO attempts (photoId, kind, worker, leaseToken, startedAt, endedAt, outcome)
                SELECT photoId, kind, 'history', 'h' || photoId, 0, 0, 'done' FROM tasks WHERE photoId <= \(last);
            """ + recountTasks
        )
    }
}
