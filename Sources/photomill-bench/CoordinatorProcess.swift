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

/// `photomill coordinator` as a process of its own, bound to an ipc socket in the bench's
/// folder, over a catalog and an empty folder to scan, its RSS sampled from the start:
/// what the memory and workers benchmarks measure.
final class CoordinatorProcess {
    let process = Process()
    let endpoint: String
    let sampler: RSSSampler

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Returns once the socket is bound.
    init(_ photomill: String, catalog: URL, name: String, in directory: URL, arguments: [String] = []) throws {
        let empty = directory.appendingPathComponent("\(name)-empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("\(name).sock").path
        endpoint = "ipc://" + socket
        process.executableURL = URL(fileURLWithPath: photomill)
        process.arguments =
            [
                "coordinator", "--bind", endpoint, "--catalog", catalog.path, "--no-exports",
                "--log-level", "error",
            ] + arguments + [empty.path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        sampler = RSSSampler(root: process.processIdentifier)
        sampler.start()
        while !FileManager.default.fileExists(atPath: socket) {
            guard process.isRunning else {
                throw BenchError("photomill coordinator exited (\(process.terminationStatus)) before binding")
            }
            usleep(10_000)
        }
    }

    /// SIGTERM (a clean stop: DISCONNECT to every worker), then waits; its peak RSS in MB.
    @discardableResult
    func stop() throws -> Double {
        process.terminate()
        process.waitUntilExit()
        sampler.stop()
        guard process.terminationStatus == 0 else {
            throw BenchError("photomill coordinator exited \(process.terminationStatus)")
        }
        return sampler.rootPeak
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

/// SQL that makes a catalog's `task_counts` again from its tasks, after a benchmark
/// changed states behind the catalog's back (docs/catalog.md, task_counts).
let recountTasks = """
    DELETE FROM task_counts;
    INSERT INTO task_counts (kind, state, n) SELECT kind, state, COUNT(*) FROM tasks GROUP BY kind, state;
    """
