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

/// Files sent as bytes (docs/benchmarks.md, "Bytes at line rate"), over CURVE on tcp
/// loopback, all processes on this machine:
/// - libzmq's own ceiling: a DEALER streaming 32 MiB messages to a ROUTER, CURVE on, for a
///   few seconds (no photomill code);
/// - one `photomill worker` (no `--root`: every file comes as bytes) hashing large files
///   a `photomill coordinator` sends, and the same worker reading them by path;
/// - 12-megapixel photos (hash + metadata + thumbnail) by workers fed bytes against
///   workers that read the paths.
/// Rates run from the first lease to the last result (the catalog's `attempts`), so that
/// start-up and the scan do not count.
struct BytesBench {
    var photomill: String
    var files: Int
    var fileMB: Int
    var slots: Int

    struct Cluster {
        var megabytes: Double
        var files: Int
        /// First lease to last result.
        var seconds: Double
        /// First lease to the last hash done: when every photo could be found by its hash
        /// and metadata (PROTOCOL.md, "Each file's bytes once": later for workers fed bytes).
        var lastHashSeconds: Double = 0
        /// `photomill_file_bytes_sent_total` at the end, in MB.
        var megabytesSent: Double = 0
        /// What the workers' own clocks say they spent processing (the RESULTs'
        /// `processing_us`, `photomill_processing_seconds_sum` over the kinds): against
        /// `seconds` × slots, how much of the run the slots were working.
        var processingSeconds: Double = 0
        var megabytesPerSecond: Double { megabytes / seconds }
        var filesPerSecond: Double { Double(files) / seconds }
    }

    /// One round of the 12-megapixel comparison: fed bytes and reading paths, over CURVE and
    /// in plaintext (where the bytes cost no encryption on the cores that process them).
    struct PhotoRun {
        var bytes: Cluster
        var paths: Cluster
        var plainBytes: Cluster
        var plainPaths: Cluster
    }

    /// The bare libzmq CURVE stream, MB/s.
    func curveStream(seconds: Double = 4, messageMB: Int = 32) throws -> Double {
        let context = try ZMQContext()
        let server = try Curve.generateKeyPair()
        let client = try Curve.generateKeyPair()
        let router = try ZMQSocket(context: context, type: .router)
        defer { router.close() }
        try router.set(.linger, to: 0)
        try router.set(.curveServer, to: true)
        try router.set(.curveSecretKey, to: server.secretKey)
        try router.set(.maxMessageSize, to: -1)
        try router.set(.receiveTimeout, to: 2000)
        try router.bind("tcp://127.0.0.1:*")
        let endpoint = try router.lastEndpoint
        let stop = Atomic()
        let payload = Data(repeating: 0x5A, count: messageMB << 20)
        let sender = OwnedThread(name: "pm-stream") { () -> (any Error)? in
            do {
                let dealer = try ZMQSocket(context: context, type: .dealer)
                defer { dealer.close() }
                try dealer.set(.linger, to: 0)
                try dealer.set(.sendHighWaterMark, to: 4)
                try dealer.set(.sendTimeout, to: 200)
                try dealer.set(.curveServerKey, to: server.publicKey)
                try dealer.set(.curvePublicKey, to: client.publicKey)
                try dealer.set(.curveSecretKey, to: client.secretKey)
                try dealer.connect(endpoint)
                while !stop.isSet { _ = try dealer.send([payload], dontWait: false) }
                return nil
            } catch {
                return error
            }
        }
        defer {
            stop.set()
            _ = sender.join()
        }
        // The first message starts the clock: the handshake and warm-up do not count.
        guard try router.receive() != nil else { throw BenchError("CURVE stream: nothing arrived within 2 s") }
        let start = MonotonicInstant.now()
        var bytes = 0
        while MonotonicInstant.now() - start < seconds {
            guard let frames = try router.receive() else { throw BenchError("CURVE stream: stalled") }
            bytes += frames.dropFirst().reduce(0) { $0 + $1.count }
        }
        return Double(bytes) / 1e6 / (MonotonicInstant.now() - start)
    }

    /// `count` files of random bytes, `megabytes` each, in a folder of their own.
    func largeFiles(in directory: URL) throws -> URL {
        let folder = directory.appendingPathComponent("large")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var generator = SplitMix64(seed: 16)
        for index in 0..<files {
            var bytes = [UInt8](repeating: 0, count: fileMB << 20)
            bytes.withUnsafeMutableBytes { raw in
                for offset in stride(from: 0, to: raw.count, by: 8) {
                    raw.storeBytes(of: generator.next(), toByteOffset: offset, as: UInt64.self)
                }
            }
            // A JPEG's first bytes, so that the scan takes it for a photo.
            bytes.replaceSubrange(0..<4, with: [0xFF, 0xD8, 0xFF, 0xE0])
            try Data(bytes).write(to: folder.appendingPathComponent(String(format: "large-%03d.jpg", index)))
        }
        return folder
    }

    /// A coordinator and `workers` workers over tcp loopback with CURVE (or in plaintext,
    /// `--insecure`, when not `curve`), on `folder`; the workers read the files themselves
    /// (`byPath`) or get them as bytes.
    func cluster(
        _ folder: URL,
        kinds: String,
        workers: Int,
        slots: Int,
        byPath: Bool,
        curve: Bool = true,
        in directory: URL
    ) throws -> Cluster {
        let run = directory.appendingPathComponent("cluster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: run) }
        for name in ["c", "w"] {
            _ = try checked(Spawn.run([photomill, "keys", "generate", "--out", run.appendingPathComponent(name).path]))
        }
        let catalog = run.appendingPathComponent("catalog.sqlite").path
        let port = 20_000 + Int.random(in: 0..<20_000)
        let endpoint = "tcp://127.0.0.1:\(port)"
        let coordinatorSecurity =
            curve ? ["--key", run.path + "/c.key", "--allow", run.path + "/w.pub"] : ["--insecure"]
        // Its log at info, for the address of its /metrics ("dashboard listening").
        let log = run.appendingPathComponent("coordinator.log")
        let coordinator = try background(
            [photomill, "coordinator", "--bind", endpoint] + coordinatorSecurity
                + [
                    "--catalog", catalog, "--no-exports", "--kinds", kinds, "--http", "127.0.0.1:0",
                    "--log-level", "info", folder.path,
                ],
            stderr: log
        )
        defer {
            if coordinator.isRunning {
                coordinator.terminate()
                coordinator.waitUntilExit()
            }
        }
        // Every file of the folder is a photo of the set (`PhotoSet` moves the others out):
        // the samples' JPEGs and their pages of text (PNG). Counting the JPEGs alone, and
        // stopping at their number of tasks, ended a run at ~90 % of its work, where
        // path-reading workers had done every photo's cheap tier and fed ones whole photos.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        var view: Catalog?
        let start = MonotonicInstant.now()
        while try (view?.status().photos ?? 0) < names.count {
            guard coordinator.isRunning, MonotonicInstant.now() - start < 120 else {
                throw BenchError("the coordinator did not scan \(folder.path)")
            }
            if view == nil, FileManager.default.fileExists(atPath: catalog) {
                view = try? Catalog(path: catalog, mode: .readOnly)
            }
            usleep(50_000)
        }
        let workerProcesses = try (0..<workers).map { _ in
            try background(
                [photomill, "worker", "--connect", endpoint]
                    + (curve ? ["--key", run.path + "/w.key", "--server-key", run.path + "/c.pub"] : ["--insecure"])
                    + ["--slots", String(slots), "--kinds", kinds, "--log-level", "error"]
                    + (byPath ? ["--root", folder.path] : [])
            )
        }
        defer {
            for worker in workerProcesses where worker.isRunning {
                worker.terminate()
                worker.waitUntilExit()
            }
        }
        let tasks = names.count * kinds.split(separator: ",").count
        while try (view?.status()).map({ $0.total(.done) + $0.total(.failed) }) ?? 0 < tasks {
            guard coordinator.isRunning, workerProcesses.allSatisfy(\.isRunning), MonotonicInstant.now() - start < 1200
            else {
                throw BenchError("the cluster stopped before \(tasks) tasks were done")
            }
            usleep(50_000)
        }
        let row = try PythonSQLite.rows(
            catalog,
            """
            SELECT MIN(startedAt), MAX(endedAt), MAX(CASE WHEN kind = 'hash' THEN endedAt END) FROM attempts WHERE outcome = 'done'
            """
        )
        guard let values = row.first, values.count == 3, let first = Double(values[0]), let last = Double(values[1]),
            let lastHash = Double(values[2])
        else {
            throw BenchError("no done attempts in \(catalog)")
        }
        let bytes = try names.reduce(0) {
            $0
                + ((try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($1).path)[.size]
                    as? Int) ?? 0)
        }
        return Cluster(
            megabytes: Double(bytes) / 1e6,
            files: names.count,
            seconds: last - first,
            lastHashSeconds: lastHash - first,
            megabytesSent: try counter("photomill_file_bytes_sent_total", log: log) / 1e6,
            processingSeconds: try counter("photomill_processing_seconds_sum", log: log)
        )
    }

    /// A counter of the coordinator's /metrics, at the address its log gives: the sum of
    /// its series (over their labels).
    private func counter(_ name: String, log: URL) throws -> Double {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard
            let url = text.split(separator: "\n").first(where: { $0.contains("dashboard listening") })?
                .split(separator: " ").first(where: { $0.hasPrefix("http.url=") }),
            let port = Int(url.split(separator: ":").last?.filter(\.isNumber) ?? "")
        else {
            throw BenchError("the coordinator's log names no dashboard: \(log.path)")
        }
        let answer = try HTTPProbe.get(port: port, path: "/metrics")
        let values = answer.text.split(separator: "\n")
            .filter { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{") }
            .compactMap { Double($0.split(separator: " ").last ?? "") }
        guard !values.isEmpty else { throw BenchError("/metrics has no \(name)") }
        return values.reduce(0, +)
    }

    private func background(_ arguments: [String], stderr: URL? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardOutput = FileHandle.nullDevice
        if let stderr {
            _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: stderr)
        }
        try process.run()
        return process
    }
}
