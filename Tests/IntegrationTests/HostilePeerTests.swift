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
import PhotomillTestSupport
import SwiftProtobuf
import Testing
import ZeroMQ

/// Peers that send what no honest worker sends (docs/reliability.md, "Bad input from the
/// network"), through real libzmq sockets to a real coordinator process, while an honest
/// worker process does a run.
@Suite(.serialized, .ownThread) struct HostilePeerTests {
    /// Every kind of bad message is dropped and counted by reason in the catalog (shown by
    /// `status`), each peer is logged at most once, a frame over ZMQ_MAXMSGSIZE costs its
    /// sender the connection, and the honest worker's run completes with nothing lost.
    /// The run's time with and without the flood is reported, not asserted.
    @Test func floodIsDroppedCountedAndTheHonestRunCompletes() throws {
        var bench = try FaultBench(count: 100, seed: 41, copies: 4)
        let flooded = bench.catalog

        // Without the flood, for comparison.
        bench.catalog = bench.directory.appendingPathComponent("quiet.sqlite")
        let quiet = try timedRun(bench, flood: nil)
        #expect(try bench.ledger().lost == 0)

        bench.catalog = flooded
        var tally = Tally()
        let catalog = bench.catalog
        let loud = try timedRun(bench) { endpoint, context in
            try flood(endpoint, context: context, until: catalog, tally: &tally)
            return tally.counts
        }
        let ledger = try bench.ledger()
        ledger.expectNothingLost("under a flood")

        // Every dropped message is counted under its reason (the coordinator commits the
        // counts with its batches).
        let expected = tally.counts
        var counted: [String: Int] = [:]
        let matched = eventually(seconds: 30) {
            counted = (try? Self.violations(bench.catalog)) ?? [:]
            return counted == expected
        }
        #expect(matched, "counted \(counted), sent \(expected)")
        for reason in [
            "wrong-signature", "unknown-command", "truncated-body", "missing-frame", "frame-too-large",
            "too-many-frames", "unknown-job", "duplicate-ready",
        ] {
            #expect((expected[reason] ?? 0) > 0, "the flood sent no \(reason)")
        }
        let status = try PhotomillBinary.run(["status", "--json", "--catalog", bench.catalog.path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(json["droppedMessages"] as? [String: Int] == expected, "\(status.stdout)")
        #expect(
            try PhotomillBinary.run(["status", "--catalog", bench.catalog.path]).stdout.contains(
                "dropped messages: \(expected.values.reduce(0, +))"
            )
        )

        // Logged at most once per peer per minute (the peer is the line's `peer` metadata).
        let logged = loud.coordinatorLog.components(separatedBy: "\n").filter { $0.hasSuffix("dropped a message") }
        for peer in ["hostile-flood", "hostile-worker"] {
            #expect(logged.filter { $0.contains(" peer=\(peer) ") }.count == 1, "\(peer): \(logged)")
        }
        #expect(logged.count <= 3, "\(logged)")
        // The stranger's HEARTBEATs are what a worker's socket sends by itself after a
        // coordinator restart: answered (PROTOCOL.md) and never counted.
        #expect(!logged.contains { $0.contains("peer=hostile-stranger") }, "\(logged)")
        #expect(
            tally.strangerAnswers > 0 && tally.strangerAnswers == tally.strangerAnswersNotRegistered,
            "the stranger got \(tally.strangerAnswers) answers, \(tally.strangerAnswersNotRegistered) of them DISCONNECT not registered"
        )

        let total = expected.values.reduce(0, +)
        FaultReport.record(
            "hostile peers (flood)",
            injected: total,
            affected: 0,
            lost: ledger.lost,
            twice: ledger.committedTwice,
            recovery: nil,
            note: String(
                format: "400 photos: %.1f s quiet, %.1f s under the flood (%.0f bad messages/s)",
                quiet.seconds,
                loud.seconds,
                Double(total) / loud.seconds
            )
        )
    }

    struct Timed {
        let seconds: Double
        let coordinatorLog: String
    }

    /// A coordinator and one honest worker over `bench`; `flood` runs on this thread until
    /// the run is done and returns the count of what it sent by reason; the coordinator is
    /// stopped once the catalog counts as much. Returns the time from the worker's start
    /// to the last commit.
    private func timedRun(
        _ bench: FaultBench,
        flood: ((String, ZMQContext) throws -> [String: Int])?
    ) throws -> Timed {
        let coordinator = try BackgroundProcess.coordinator(anyLoopbackPort, bench)
        let endpoint = try coordinator.boundEndpoint()
        #expect(eventually(seconds: 60) { (try? bench.count("SELECT COUNT(*) FROM tasks")) == bench.files.count * 2 })
        let context = try ZMQContext()
        let started = Date()
        let worker = try BackgroundProcess.worker(endpoint, root: bench.photos, slots: 2)
        let sent = try flood?(endpoint, context) ?? [:]
        #expect(bench.waitUntilFinished(), "\(coordinator.stderr)")
        let lastCommit = try #require(
            Double(try CatalogQuery.rows(bench.catalog, "SELECT MAX(endedAt) FROM attempts").first?.first ?? "")
        )
        worker.signal(SIGTERM)
        #expect(worker.wait(seconds: 60) == 0)
        // The last violation counts reach the catalog with a commit.
        _ = eventually(seconds: 30) { (try? Self.violations(bench.catalog)) == sent }
        coordinator.signal(SIGTERM)
        #expect(coordinator.wait(seconds: 30) == 0, "\(coordinator.stderr)")
        return Timed(seconds: lastCommit - started.timeIntervalSince1970, coordinatorLog: coordinator.stderr)
    }

    /// The dropped messages the catalog counts, by reason.
    static func violations(_ catalog: URL) throws -> [String: Int] {
        Dictionary(
            uniqueKeysWithValues: try CatalogQuery.rows(catalog, "SELECT reason, count FROM violations").map {
                ($0[0], Int($0[1]) ?? -1)
            }
        )
    }

    /// What was sent, by the reason the coordinator should count it under.
    struct Tally {
        var counts: [String: Int] = [:]
        /// What the stranger (HEARTBEATs before READY) got back, and how many were
        /// DISCONNECT with PROTOCOL.md's reason.
        var strangerAnswers = 0
        var strangerAnswersNotRegistered = 0
        mutating func add(_ reason: String, _ sent: Bool) { if sent { counts[reason, default: 0] += 1 } }
    }

    /// Floods the coordinator from four peers until `catalog` has no unfinished task.
    private func flood(_ endpoint: String, context: ZMQContext, until catalog: URL, tally: inout Tally) throws {
        func dealer(_ id: String) throws -> ZMQSocket {
            let socket = try ZMQSocket(context: context, type: .dealer)
            try socket.set(.routingId, to: Data(id.utf8))
            try socket.set(.linger, to: 0)
            try socket.connect(endpoint)
            return socket
        }
        let signature = MillWire.signature
        let truncated: [Data] = {
            var frames = MillCodec.encode(.disconnect(.with { $0.reason = String(repeating: "x", count: 100) }))
            frames[2] = frames[2].prefix(40)  // ends inside the string field
            return frames
        }()
        let oversized = [signature, Data([Command.heartbeat.rawValue]), Data(count: Limits.default.maxBodyBytes + 1)]
        let tooMany = [Data](repeating: Data(), count: Limits.default.maxFrames + 4)
        var random = SystemRandomNumberGenerator()

        // A stranger: well-formed, but never said READY.
        let stranger = try dealer("hostile-stranger")
        // A registered "worker" (OCR only, so it is never given this run's jobs) that says
        // READY twice and reports jobs it never held.
        let impostor = try dealer("hostile-worker")
        let ready = MillCodec.encode(
            .ready(
                .with {
                    $0.workerID = "hostile-worker"
                    $0.host = "nowhere"
                    $0.softwareVersion = "0.0.0"
                    $0.protocolVersion = MillWire.protocolVersion
                    $0.slots = 1
                    $0.kinds = [.ocr]
                    $0.ocrLanguages = ["eng"]
                    $0.heartbeatIntervalMs = 1000
                }
            )
        )
        #expect(try impostor.send(ready, dontWait: false))
        let forged = MillCodec.encode(
            .result(
                .with {
                    $0.jobID = "1.1"
                    $0.leaseToken = "forged-token"
                    $0.results = [
                        .with {
                            $0.kind = .hash
                            $0.recipe = "x"
                            $0.hashes = .with {
                                $0.md5 = String(repeating: "0", count: 32)
                                $0.sha256 = String(repeating: "0", count: 64)
                                $0.fileSize = 1
                            }
                        }
                    ]
                },
                blobs: []
            )
        )
        for _ in 0..<50 {
            tally.add("duplicate-ready", try impostor.send(ready, dontWait: false))
            tally.add("unknown-job", try impostor.send(forged, dontWait: false))
        }

        // A frame over ZMQ_MAXMSGSIZE: libzmq drops the connection before delivering it,
        // so it is not counted; what matters is that the coordinator carries on.
        let huge = try dealer("hostile-huge")
        _ = try huge.send(
            [signature, Data([Command.heartbeat.rawValue]), Data(count: Limits.default.maxFrameBytes + 1)],
            dontWait: false
        )

        // The flood, until the honest worker is done.
        let flooder = try dealer("hostile-flood")
        var round = 0
        while true {
            round += 1
            if round % 1000 == 0,
                (try? CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE state IN ('pending', 'leased')"))
                    == 0
            {
                break
            }
            let garbage = (0..<3).map { _ in
                Data(
                    (0..<Int.random(in: 1...40, using: &random)).map { _ in UInt8.random(in: 0...0x4F, using: &random) }
                )
            }
            tally.add("wrong-signature", try flooder.send(garbage, dontWait: true))
            tally.add(
                "wrong-signature",
                try flooder.send([Data("PMILL2".utf8), Data([Command.heartbeat.rawValue]), Data()], dontWait: true)
            )
            tally.add("unknown-command", try flooder.send([signature, Data([0x42]), Data()], dontWait: true))
            tally.add("truncated-body", try flooder.send(truncated, dontWait: true))
            tally.add("missing-frame", try flooder.send([signature], dontWait: true))
            tally.add("too-many-frames", try flooder.send(tooMany, dontWait: true))
            if round % 20 == 0 { tally.add("frame-too-large", try flooder.send(oversized, dontWait: true)) }
            if round % 10 == 0 { _ = try stranger.send(MillCodec.encode(.heartbeat()), dontWait: true) }
            while let answer = try? stranger.receive(dontWait: true) {
                tally.strangerAnswers += 1
                if case .disconnect(let body)? = try? MillCodec.decode(answer), body.reason == "not-registered" {
                    tally.strangerAnswersNotRegistered += 1
                }
            }
            if round % 50 == 0 { usleep(1000) }  // the honest worker shares the machine's cores
        }
        for socket in [stranger, impostor, huge, flooder] { socket.close() }
    }
}
