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
import PhotomillTestSupport
import Testing

/// A worker that cannot reach its coordinator says why, once, in words with what to do
/// (docs/reliability.md, "Accidents"), instead of "coordinator is silent" on every retry:
/// real worker processes against real sockets, one per cause, side by side.
@Suite(.ownThread) struct NetworkFailureTests {
    @Test func eachCauseIsNamedOnceAndNoneReadsSilent() throws {
        let secure = try SecurityTests.SecureCoordinator(photos: 1)
        defer { secure.process.signal(SIGKILL) }
        let plain = try BackgroundProcess([
            "coordinator", "--bind", anyLoopbackPort, "--insecure", "--no-exports",
            "--catalog", secure.directory.appendingPathComponent("plain.sqlite").path,
            secure.directory.appendingPathComponent("photos").path,
        ])
        defer { plain.signal(SIGKILL) }
        let plainEndpoint = try plain.boundEndpoint()
        // A port this process holds bound and never listens on: connections to it are refused.
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }

        let (listed, unlisted, server) = (secure.listed, secure.unlisted, secure.server)
        // Each: the worker's flags, and the words its one warning must hold.
        let cases: [(String, [String], String)] = [
            (
                "refused", ["--connect", "tcp://127.0.0.1:\(closed.port)", "--insecure"],
                "connection refused: nothing listens at tcp://127.0.0.1:"
            ),
            (
                "no ipc socket", ["--connect", "ipc://\(secure.directory.path)/none.sock"],
                "no coordinator listens at \(secure.directory.path)/none.sock"
            ),
            // .invalid never resolves (RFC 2606).
            (
                "unknown host", ["--connect", "tcp://nosuchhost.invalid:5555", "--insecure"],
                "unknown host nosuchhost.invalid"
            ),
            (
                "wrong server key", ["--connect", secure.endpoint, "--key", listed.key, "--server-key", unlisted.pub],
                "--server-key is most likely not its public key"
            ),
            (
                "key not allowed", ["--connect", secure.endpoint, "--key", unlisted.key, "--server-key", server.pub],
                "does not allow this worker's key (status 400)"
            ),
            (
                "insecure worker, CURVE coordinator", ["--connect", secure.endpoint, "--insecure"],
                "requires CURVE but this worker runs --insecure"
            ),
            (
                "CURVE worker, insecure coordinator",
                ["--connect", plainEndpoint, "--key", listed.key, "--server-key", server.pub],
                "runs without CURVE (--insecure) but this worker uses CURVE"
            ),
        ]
        // 300 ms heartbeats: the worker gives a silent connection up after 0.9 s. Each is
        // judged once it has given up three times (each time a "…: reconnecting" line, at
        // debug level once the cause was said), each with libzmq's own retries.
        let workers = try cases.map {
            try BackgroundProcess(
                ["worker", "--slots", "1", "--heartbeat-interval", "300", "--log-level", "debug"] + $0.1
            )
        }
        defer { for worker in workers { worker.signal(SIGKILL) } }
        for ((name, _, _), worker) in zip(cases, workers) {
            let reconnected = eventually(seconds: 60) {
                worker.stderr.components(separatedBy: ": reconnecting").count - 1 >= 3
            }
            #expect(reconnected, "\(name): the worker never gave its connection up three times: \(worker.stderr)")
        }
        for ((name, _, words), worker) in zip(cases, workers) {
            let log = worker.stderr
            // Warnings only: the debug lines of the later retries say "still cannot reach".
            let warnings = log.split(separator: "\n").filter {
                $0.contains(" warning ") && $0.contains("cannot reach the coordinator: ")
            }.count
            #expect(
                warnings == 1 && log.contains(words),
                "\(name): one warning naming the cause, got \(warnings): \(log)"
            )
            #expect(!log.contains("is silent"), "\(name): \(log)")
        }
        let registered = try CatalogQuery.count(secure.catalog, "SELECT COUNT(*) FROM workers")
        #expect(registered == 0, "none of them got through")
    }
}
