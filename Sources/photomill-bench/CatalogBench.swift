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

/// The catalog alone, doing what the coordinator asks of it per trivial task (page it in,
/// commit its lease, commit its result), with no messaging: the ceiling SQLite sets.
struct CatalogBench {
    var tasks: Int

    func run(in directory: URL) throws -> Double {
        let catalog = try pendingHashCatalog(tasks: tasks, at: directory.appendingPathComponent("catalog-alone.sqlite"))
        let start = MonotonicInstant.now()
        let cpuStart = threadCPUSeconds()
        var position = QueuePosition.start
        var committed = 0
        var phases = [0.0, 0.0, 0.0]
        var mark = MonotonicInstant.now()
        func lap(_ i: Int) {
            let t = MonotonicInstant.now()
            phases[i] += t - mark
            mark = t
        }
        while true {
            let now = WallClock.now()
            let page = try catalog.pendingJobs(tier: Kind.hash.tier, after: position, now: now, limit: 512)
            lap(0)
            guard let last = page.last else { break }
            position = last.position
            var leases = CommitBatch()
            leases.leases = page.enumerated().map { index, job in
                Lease(
                    photoId: job.photoId,
                    kinds: job.kinds,
                    token: "t\(last.photoId)-\(index)",
                    worker: "w",
                    leasedAt: now,
                    expiresAt: now + 60
                )
            }
            _ = try catalog.commit(leases, now: now)
            lap(1)
            var results = CommitBatch()
            results.results = leases.leases.map { lease in
                ReportedResult(
                    result: TaskResult(
                        photoId: lease.photoId,
                        kind: .hash,
                        leaseToken: lease.token,
                        outcome: .hash(
                            md5: "d41d8cd98f00b204e9800998ecf8427e",
                            sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                        ),
                        recipe: "echo"
                    ),
                    worker: "w",
                    startedAt: now,
                    endedAt: now
                )
            }
            committed += try catalog.commit(results, now: now).committed.count
            lap(2)
        }
        let perTask = { (seconds: Double) in String(format: "%.1f µs", seconds / Double(tasks) * 1e6) }
        print(
            "  per task: page \(perTask(phases[0])), lease \(perTask(phases[1])), result \(perTask(phases[2])); CPU \(perTask(threadCPUSeconds() - cpuStart))"
        )
        guard committed == tasks else { throw BenchError("catalog alone committed \(committed) of \(tasks)") }
        return Double(committed) / (MonotonicInstant.now() - start)
    }
}
