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
import MillProtocol
import PhotomillCore
import PhotomillTestSupport
import SwiftProtobuf
import Testing
import ZeroMQ

/// Revision 3 on a real socket (PROTOCOL.md, "Batches", "Versions"): a `photomill
/// coordinator` process and a hand-made worker that speaks raw frames.
@Suite(.ownThread) struct BatchWireTests {
    /// A revision-2 worker gets DISCONNECT with a reason naming both revisions, no job,
    /// and the catalog counts one `old-protocol`.
    @Test func oldRevisionIsRefused() throws {
        let bench = try FaultBench(count: 6, seed: 51)
        let coordinator = try BackgroundProcess.coordinator(anyLoopbackPort, bench, kinds: "hash")
        let endpoint = try coordinator.boundEndpoint()
        defer { coordinator.signal(SIGKILL) }
        let old = try RawPeer(dealerTo: endpoint, id: "old-worker#1")
        guard case .ready(var ready) = RawPeer.ready(workerId: "old-worker", slots: 4) else { return }
        ready.protocolVersion = 2
        ready.pathRoots = [bench.photos.path]
        try old.send(.ready(ready))
        let answer = try #require(try old.receive(within: 20), "no answer to READY: \(coordinator.stderr)")
        guard case .disconnect(let body) = try MillCodec.decode(answer) else {
            Issue.record(
                "answered \(answer[1].first.map { Command(rawValue: $0).map(String.init(describing:)) ?? "?" } ?? "?"), not DISCONNECT"
            )
            return
        }
        #expect(body.reason.contains("revision 2") && body.reason.contains("needs 3"), "\(body.reason)")
        #expect(body.reason.contains("old-worker"))
        #expect(try old.receive(within: 1.5) == nil, "nothing after the refusal, no job")
        #expect(
            eventually(seconds: 30) {
                ((try? bench.count("SELECT count FROM violations WHERE reason = 'old-protocol'")) ?? 0) == 1
            },
            "\(coordinator.stderr)"
        )
        #expect(try bench.count("SELECT COUNT(*) FROM tasks WHERE state != 'pending'") == 0)
    }

    /// A worker with 8 free slots gets its first jobs as one JOBS of 8; it answers each
    /// burst with one RESULTS of the hashes `md5sum` and `sha256sum` print; every ACK
    /// commits; the catalog ends with every photo's hashes equal to theirs.
    @Test func jobsAndResultsOverTheWire() throws {
        let bench = try FaultBench(count: 30, seed: 52)
        let coordinator = try BackgroundProcess.coordinator(anyLoopbackPort, bench, kinds: "hash")
        let endpoint = try coordinator.boundEndpoint()
        defer { coordinator.signal(SIGKILL) }
        #expect(
            eventually(seconds: 60) { ((try? bench.count("SELECT COUNT(*) FROM tasks")) ?? 0) == bench.files.count }
        )
        let reference = try Self.hashes(bench.files)

        let worker = try RawPeer(dealerTo: endpoint, id: "batch-worker#1")
        guard case .ready(var ready) = RawPeer.ready(workerId: "batch-worker", slots: 8) else { return }
        ready.pathRoots = [bench.photos.path]
        try worker.send(.ready(ready))
        var commands: [Command] = []
        var batchSizes: [Int] = []
        var committed: Set<String> = []
        var sent: Set<String> = []
        let deadline = MonotonicInstant.now() + 120
        while committed.count < bench.files.count && MonotonicInstant.now() < deadline {
            guard let frames = try worker.receive(within: 5, heartbeat: true) else { continue }
            let message = try MillCodec.decode(frames)
            commands.append(message.command)
            var jobs: [Photomill_V1_Job] = []
            switch message {
            case .jobs(let batch): jobs = batch.jobs
            case .job(let job, _): jobs = [job]
            case .ack(let ack):
                #expect(ack.discarded.isEmpty, "\(ack.discarded)")
                committed.formUnion(ack.committed)
            default: break
            }
            guard !jobs.isEmpty else { continue }
            batchSizes.append(jobs.count)
            var results = Photomill_V1_Results()
            for job in jobs {
                #expect(!job.fileInBlobs && sent.insert(job.jobID).inserted)
                let (md5, sha256) = try #require(reference[job.path], "\(job.path) not in the folder")
                results.results.append(
                    .with {
                        $0.jobID = job.jobID
                        $0.leaseToken = job.leaseToken
                        $0.results = [
                            .with {
                                $0.kind = .hash
                                $0.recipe = "hash/1 impl=raw-test"
                                $0.hashes = .with {
                                    $0.md5 = md5
                                    $0.sha256 = sha256
                                    $0.fileSize = job.fileSize
                                }
                            }
                        ]
                    }
                )
            }
            try worker.send(jobs.count == 1 ? .result(results.results[0], blobs: []) : .results(results, blobs: []))
        }
        #expect(commands.first == .jobs, "the first burst to 8 free slots is one JOBS: \(commands.prefix(4))")
        #expect(batchSizes.first == 8, "\(batchSizes)")
        #expect(batchSizes.allSatisfy { $0 <= 8 }, "never more than the slots: \(batchSizes)")
        #expect(committed == sent && committed.count == bench.files.count)
        let stored = try CatalogQuery.rows(bench.catalog, "SELECT p.path, p.md5, p.sha256 FROM photos p")
        #expect(stored.count == bench.files.count)
        for row in stored { #expect(reference[row[0]].map { [$0.md5, $0.sha256] } == [row[1], row[2]], "\(row[0])") }
        #expect(try bench.count("SELECT COUNT(*) FROM violations") == 0)
    }

    /// md5sum and sha256sum of each file, by path.
    static func hashes(_ files: [String]) throws -> [String: (md5: String, sha256: String)] {
        func digests(_ tool: String) throws -> [String: String] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [tool] + files
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return Dictionary(
                uniqueKeysWithValues: text.split(separator: "\n").map { line in
                    (
                        String(
                            line.dropFirst(
                                line.firstIndex(of: " ").map { line.distance(from: line.startIndex, to: $0) + 2 } ?? 0
                            )
                        ),
                        String(line.prefix { $0 != " " })
                    )
                }
            )
        }
        let md5 = try digests("md5sum")
        let sha256 = try digests("sha256sum")
        return md5.reduce(into: [:]) { all, entry in all[entry.key] = (entry.value, sha256[entry.key] ?? "") }
    }
}
