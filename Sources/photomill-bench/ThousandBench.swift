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

/// Many workers on one coordinator (docs/benchmarks.md, "A thousand workers"):
/// `photomill coordinator` as a process of its own over ipc, and N simulated workers
/// (`EchoWorker`, the sockets shared out over two threads of this process), each with its
/// own routing id, heartbeating once a second while idle and answering jobs at once.
/// For each N: the coordinator's CPU and RSS while the workers are connected and idle,
/// then the rate at which they clear `tasks` trivial tasks and how evenly those were shared,
/// then how long after its last message a worker that falls silent is dropped.
struct ThousandBench {
    var photomill: String
    var counts: [Int]
    var slots: Int
    var tasks: Int
    var idleSeconds: Double = 10

    struct Figures {
        var workers: Int
        /// MB: the coordinator before any worker connected, with them connected and idle,
        /// and its peak over the whole run (VmHWM).
        var baseRSS: Double
        var idleRSS: Double
        var peakRSS: Double
        /// Cores: the coordinator process's CPU over the idle window, in all and by thread.
        var idleCPU: Double
        var idleThreads: [String: Double]
        var committed: Int
        /// From the first job any worker received to the last ACK.
        var seconds: Double
        /// CPU seconds of the coordinator process per result, over the work.
        var cpuPerResult: Double
        /// Jobs each worker received: the fewest, the most, and Jain's fairness index
        /// ((Σx)² / (n·Σx²): 1 when all got as many).
        var fewestJobs: Int
        var mostJobs: Int
        var fairness: Double
        /// Seconds from a silenced worker's last message to its row marked gone.
        var detection: Double?
        /// CPU seconds per result of this process (the simulated workers), over the work.
        var benchCPUPerResult: Double
        /// CPU seconds per result of each of the coordinator's threads, over the work.
        var workThreads: [String: Double]
        var perSecond: Double { Double(committed) / seconds }
    }

    func run(in directory: URL) throws -> [Figures] {
        try counts.map { try measure(workers: $0, in: directory) }
    }

    private func measure(workers: Int, in directory: URL) throws -> Figures {
        let url = directory.appendingPathComponent("workers-\(workers).sqlite")
        _ = try pendingHashCatalog(tasks: tasks, at: url)
        // Held back as failed until every worker is connected and the idle figures are
        // taken; `photomill retry` then queues them all at once, as an operator would.
        try PythonSQLite.execute(
            url.path,
            """
            UPDATE tasks SET state = 'failed', attempts = 3, errorClass = 'unreadable', errorMessage = '/bench: held back';
            """ + recountTasks
        )
        let coordinator = try CoordinatorProcess(
            photomill,
            catalog: url,
            name: "w\(workers)",
            in: directory,
            arguments: ["--kinds", "hash"]
        )
        let pid = coordinator.pid
        usleep(500_000)
        let baseRSS = residentMB(pid)

        let context = try ZMQContext(maxSockets: workers + 64)
        let ids = (0..<workers).map { String(format: "sim-%04d", $0) }
        let groups = stride(from: 0, to: workers, by: (workers + 1) / 2).map { start in
            EchoWorker(
                endpoint: coordinator.endpoint,
                ids: Array(ids[start..<min(workers, start + (workers + 1) / 2)]),
                slots: slots
            )
        }
        for group in groups { group.start(context: context) }
        let connected = MonotonicInstant.now()
        while groups.reduce(0, { $0 + $1.heardCount }) < workers {
            guard MonotonicInstant.now() - connected < 120 else {
                throw BenchError("only \(groups.reduce(0) { $0 + $1.heardCount }) of \(workers) workers were answered")
            }
            usleep(20_000)
        }
        sleep(2)
        let idleStart = processThreadCPU(pid)
        usleep(UInt32(idleSeconds * 1e6))
        let idleEnd = processThreadCPU(pid)
        let idleRSS = residentMB(pid)
        var idleThreads: [String: Double] = [:]
        for (tid, end) in idleEnd {
            idleThreads[end.name, default: 0] += (end.seconds - (idleStart[tid]?.seconds ?? 0)) / idleSeconds
        }

        let threadsBefore = processThreadCPU(pid)
        let cpuBefore = threadsBefore.values.reduce(0) { $0 + $1.seconds }
        let benchBefore = processCPUSeconds()
        let retry = Process()
        retry.executableURL = URL(fileURLWithPath: photomill)
        retry.arguments = ["retry", "--catalog", url.path]
        retry.standardOutput = FileHandle.nullDevice
        try retry.run()
        retry.waitUntilExit()
        guard retry.terminationStatus == 0 else {
            throw BenchError("photomill retry exited \(retry.terminationStatus)")
        }
        let workStart = MonotonicInstant.now()
        while groups.reduce(0, { $0 + $1.totalCommittedSoFar }) < tasks {
            guard coordinator.isRunning, MonotonicInstant.now() - workStart < 600 else {
                throw BenchError("\(groups.reduce(0) { $0 + $1.totalCommittedSoFar }) of \(tasks) results committed")
            }
            usleep(20_000)
        }
        let threadsAfter = processThreadCPU(pid)
        let cpuAfter = threadsAfter.values.reduce(0) { $0 + $1.seconds }
        var workThreads: [String: Double] = [:]
        for (tid, end) in threadsAfter {
            workThreads[end.name, default: 0] += end.seconds - (threadsBefore[tid]?.seconds ?? 0)
        }
        let benchCPU = processCPUSeconds() - benchBefore

        // A worker falls silent: the coordinator must drop it within its liveness window.
        var detection: Double?
        if workers > 1 {
            let catalog = try Catalog(path: url.path, mode: .readOnly)
            let lastSent = groups[0].silence(0)
            while detection == nil && MonotonicInstant.now() - lastSent < 30 {
                if try catalog.status().workers.contains(where: { $0.id == ids[0] && $0.state == .gone }) {
                    detection = MonotonicInstant.now() - lastSent
                }
                usleep(20_000)
            }
        }

        let peakRSS = try coordinator.stop()
        for group in groups { try group.join() }
        withExtendedLifetime(context) {}
        let jobs = groups.flatMap(\.jobs)
        let sum = Double(jobs.reduce(0, +))
        let squares = jobs.reduce(0.0) { $0 + Double($1 * $1) }
        guard let first = groups.compactMap(\.firstJob).min(), let last = groups.compactMap(\.lastAck).max() else {
            throw BenchError("the simulated workers got no job or no ACK")
        }
        let committed = groups.reduce(0) { $0 + $1.totalCommitted }
        return Figures(
            workers: workers,
            baseRSS: baseRSS,
            idleRSS: idleRSS,
            peakRSS: peakRSS,
            idleCPU: idleThreads.values.reduce(0, +),
            idleThreads: idleThreads,
            committed: committed,
            seconds: last - first,
            cpuPerResult: (cpuAfter - cpuBefore) / Double(max(1, committed)),
            fewestJobs: jobs.min() ?? 0,
            mostJobs: jobs.max() ?? 0,
            fairness: squares > 0 ? sum * sum / (Double(jobs.count) * squares) : 0,
            detection: detection,
            benchCPUPerResult: benchCPU / Double(max(1, committed)),
            workThreads: workThreads.mapValues { $0 / Double(max(1, committed)) }
        )
    }
}

/// VmRSS of a process, in MB.
func residentMB(_ pid: Int32) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kB = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kB / 1024
}
