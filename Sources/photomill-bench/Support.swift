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

/// A new catalog of `tasks` pending hash tasks on made-up paths under /bench (nothing
/// reads them: the benchmarks that use it answer without touching files).
func pendingHashCatalog(tasks: Int, at url: URL) throws -> Catalog {
    let catalog = try Catalog(path: url.path)
    var queued = 0
    while queued < tasks {
        let files = (queued..<min(tasks, queued + 5_000)).map {
            ScannedFile(path: "/bench/\($0).jpg", size: 0, mtimeNs: 0, recognition: .media(.jpeg))
        }
        _ = try catalog.record(files, kinds: [.hash], now: WallClock.now())
        queued += files.count
    }
    return catalog
}

/// CPU time (user + system) of the calling thread.
func threadCPUSeconds() -> Double {
    cpuSeconds(__rusage_who_t(1))  // RUSAGE_THREAD, which Glibc does not export to Swift
}

/// CPU time (user + system) of the whole process.
func processCPUSeconds() -> Double {
    cpuSeconds(__rusage_who_t(RUSAGE_SELF.rawValue))
}

private func cpuSeconds(_ who: __rusage_who_t) -> Double {
    var usage = rusage()
    getrusage(who, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
        usage.ru_utime.tv_usec + usage.ru_stime.tv_usec
    ) / 1e6
}

/// CPU seconds (user + system) of each thread of this process by thread name, over an
/// interval. Threads may end before it does (the coordinator's do), so /proc is read
/// every 50 ms and a thread's last reading counts: it may miss up to 50 ms per thread.
final class ThreadCPUSampler: @unchecked Sendable {
    // @unchecked: the readings are guarded by `lock`.
    private let lock = NSLock()
    private var first: [Int: Double] = [:]
    private var last: [Int: (name: String, seconds: Double)] = [:]
    private var sampling: Every50ms?

    func start() {
        first = Self.read().mapValues(\.seconds)
        sampling = Every50ms { [self] in record(Self.read()) }
    }

    func stop() -> [String: Double] {
        sampling?.stop()
        record(Self.read())
        return lock.withLock {
            last.reduce(into: [:]) { sums, entry in
                sums[entry.value.name, default: 0] += entry.value.seconds - (first[entry.key] ?? 0)
            }
        }
    }

    private func record(_ reading: [Int: (name: String, seconds: Double)]) {
        lock.withLock { last.merge(reading) { $1 } }
    }

    private static func read() -> [Int: (name: String, seconds: Double)] { processThreadCPU(nil) }
}

/// CPU seconds (user + system) of each thread of a process (this one when nil), by
/// thread id, with the thread's name, from /proc.
func processThreadCPU(_ pid: Int32?) -> [Int: (name: String, seconds: Double)] {
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    let root = "/proc/" + (pid.map(String.init) ?? "self") + "/task"
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    var readings: [Int: (name: String, seconds: Double)] = [:]
    for task in tasks {
        guard let tid = Int(task),
            let name = try? String(contentsOfFile: "\(root)/\(task)/comm", encoding: .utf8),
            let stat = try? String(contentsOfFile: "\(root)/\(task)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { continue }
        // After "pid (comm) ": state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
        readings[tid] = (name.trimmingCharacters(in: .whitespacesAndNewlines), (user + system) / ticks)
    }
    return readings
}

/// CPU time of the children waited for so far.
func childrenCPUSeconds() -> Double {
    cpuSeconds(__rusage_who_t(RUSAGE_CHILDREN.rawValue))
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// SQL on a catalog file through Python's sqlite3 module, for what the benchmarks set up
/// or read behind photomill's back (a long history of done tasks, the span of the
/// attempts): photomill's API has no reason to offer it, and GRDB stays inside Catalog.
enum PythonSQLite {
    /// Runs `script` (statements separated by `;`) in one transaction.
    static func execute(_ path: String, _ script: String) throws {
        _ = try run(path, script, query: false)
    }

    /// The rows of `sql`, each value as text (NULL as "").
    static func rows(_ path: String, _ sql: String) throws -> [[String]] {
        try run(path, sql, query: true).split(separator: "\n").map { $0.components(separatedBy: "\t") }
    }

    private static func run(_ path: String, _ sql: String, query: Bool) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            """
            import sqlite3, sys
            con = sqlite3.connect(sys.argv[1], timeout=30)
            if sys.argv[3] == 'query':
                for row in con.execute(sys.argv[2]):
                    print('\\t'.join('' if v is None else str(v) for v in row))
            else:
                with con:
                    con.executescript(sys.argv[2])
            """, path, sql, query ? "query" : "script",
        ]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("python3 sqlite3 on \(path) failed (\(process.terminationStatus))")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
