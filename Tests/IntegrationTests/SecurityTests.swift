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
import Testing
import ZeroMQ

/// CURVE and the allow-list, end to end: the built coordinator on tcp loopback, and
/// peers that are the real worker binary or raw sockets playing strangers.
@Suite(.serialized, .ownThread) struct SecurityTests {
    /// A coordinator with CURVE, its keys, one listed worker key (A) and one unlisted (B).
    struct SecureCoordinator {
        let directory: URL
        let catalog: URL
        let allowList: URL
        let endpoint: String
        let server: (pair: RawPeer.KeyPair, key: String, pub: String)
        let listed: (pair: RawPeer.KeyPair, key: String, pub: String)
        let unlisted: (pair: RawPeer.KeyPair, key: String, pub: String)
        let process: BackgroundProcess

        init(photos count: Int, kinds: String = "hash") throws {
            directory = try temporaryDirectory()
            let photos = directory.appendingPathComponent("photos")
            _ = try PhotomillBinary.run(["samples", photos.path, "--count", String(count), "--seed", "11"])
            server = try TestKeys.generate("coordinator", in: directory)
            listed = try TestKeys.generate("listed", in: directory)
            unlisted = try TestKeys.generate("unlisted", in: directory)
            allowList = directory.appendingPathComponent("allowed-workers")
            try ("# photomill workers\n" + String(contentsOfFile: listed.pub, encoding: .utf8)).write(
                to: allowList,
                atomically: true,
                encoding: .utf8
            )
            catalog = directory.appendingPathComponent("catalog.sqlite")
            process = try BackgroundProcess([
                "coordinator", "--bind", anyLoopbackPort, "--key", server.key, "--allow", allowList.path,
                "--catalog", catalog.path, "--no-exports", "--kinds", kinds, photos.path,
            ])
            endpoint = try process.boundEndpoint()
        }

        /// Replaces the allow-list's content in one rename, as an editor or a script would.
        func writeAllowList(_ text: String) throws {
            try text.write(to: allowList, atomically: true, encoding: .utf8)
        }

        var secrets: [String] { [server.pair.secretKey, listed.pair.secretKey, unlisted.pair.secretKey] }
    }

    /// A plaintext client and a client whose key is not listed get no reply at all, not
    /// even to a valid READY; a listed key is answered. After its key is removed from the
    /// allow-list and SIGHUP, the listed client is told to go, and a new connection with
    /// that key gets nothing. A key added to the file is admitted without a signal.
    @Test func onlyListedKeysAreAnsweredAndRemovalTakesEffectOnReload() throws {
        let coordinator = try SecureCoordinator(photos: 3)
        defer { coordinator.process.signal(SIGKILL) }
        let serverKey = coordinator.server.pair.publicKey

        let plaintext = try RawPeer(dealerTo: coordinator.endpoint, id: "plaintext")
        try plaintext.send(RawPeer.ready(workerId: "plaintext"))
        let stranger = try RawPeer(
            dealerTo: coordinator.endpoint,
            keys: coordinator.unlisted.pair,
            serverKey: serverKey,
            id: "stranger"
        )
        try stranger.send(RawPeer.ready(workerId: "stranger"))
        let listed = try RawPeer(
            dealerTo: coordinator.endpoint,
            keys: coordinator.listed.pair,
            serverKey: serverKey,
            id: "listed"
        )
        try listed.send(RawPeer.ready(workerId: "listed"))

        let answer = try #require(
            try listed.receive(within: 20),
            "a listed key is answered: \(coordinator.process.stderr)"
        )
        let decoded = try MillCodec.decode(answer)
        #expect(
            [.heartbeat, .job].contains(decoded.command),
            "READY is answered with HEARTBEAT or JOB, got \(decoded.command)"
        )
        // The strangers had the same time and 4 s more (the listed peer kept alive meanwhile): not a frame.
        let window = Stopwatch()
        while window.seconds < 4 {
            _ = try listed.receive(within: 0.5, heartbeat: true)
            #expect(try plaintext.socket.receive(dontWait: true) == nil, "a plaintext client learns nothing")
            #expect(try stranger.socket.receive(dontWait: true) == nil, "an unlisted key learns nothing")
        }
        let workers = try CatalogQuery.rows(coordinator.catalog, "SELECT id FROM workers").map { $0[0] }
        #expect(workers == ["listed"], "only the listed key registered: \(workers)")
        #expect(
            coordinator.process.stderr.contains("refused a worker"),
            "the refusal is logged: \(coordinator.process.stderr)"
        )

        // Remove the listed key, then SIGHUP.
        try coordinator.writeAllowList("# nobody\n")
        coordinator.process.signal(SIGHUP)
        var told: MillMessage?
        while told == nil || told?.command != .disconnect {
            guard let frames = try listed.receive(within: 20, heartbeat: true) else { break }
            told = try MillCodec.decode(frames)
        }
        guard case .disconnect(let body)? = told else {
            Issue.record("the removed key's connection got no DISCONNECT: \(coordinator.process.stderr)")
            return
        }
        #expect(body.reason == "key-not-allowed")
        #expect(coordinator.process.stderr.contains("allow-list reloaded (SIGHUP)"), "\(coordinator.process.stderr)")
        let again = try RawPeer(
            dealerTo: coordinator.endpoint,
            keys: coordinator.listed.pair,
            serverKey: serverKey,
            id: "listed-again"
        )
        try again.send(RawPeer.ready(workerId: "listed-again"))
        #expect(try again.receive(within: 3) == nil, "a removed key is refused at the handshake")
        #expect(
            try CatalogQuery.count(coordinator.catalog, "SELECT COUNT(*) FROM workers WHERE id = 'listed-again'") == 0
        )

        // Adding a key needs no signal: the file's change is noticed. (The removal above
        // may have been noticed as a change of the file before the SIGHUP: a reload that
        // added a key is the one to wait for.)
        let reloads = { coordinator.process.stderr.components(separatedBy: "reloaded (file changed)").count }
        let reloadsBefore = reloads()
        try coordinator.writeAllowList(String(contentsOfFile: coordinator.unlisted.pub, encoding: .utf8))
        #expect(
            eventually(seconds: 20) { reloads() > reloadsBefore },
            "\(coordinator.process.stderr)"
        )
        let newcomer = try RawPeer(
            dealerTo: coordinator.endpoint,
            keys: coordinator.unlisted.pair,
            serverKey: serverKey,
            id: "newcomer"
        )
        try newcomer.send(RawPeer.ready(workerId: "newcomer"))
        #expect(
            try newcomer.receive(within: 20) != nil,
            "a key added to the file is admitted: \(coordinator.process.stderr)"
        )

        for secret in coordinator.secrets {
            #expect(!coordinator.process.stderr.contains(secret), "no secret key in the log")
        }
    }

    /// The real worker binary: with a listed key and the pinned server key it does all
    /// the work; with an unlisted key, with a pin of another coordinator's key, or in
    /// plaintext, it gets no job and says why.
    @Test func workersWithoutTheRightKeysGetNoJob() throws {
        let coordinator = try SecureCoordinator(photos: 6, kinds: "hash,metadata")
        defer { coordinator.process.signal(SIGKILL) }
        let other = try TestKeys.generate("other-coordinator", in: coordinator.directory)
        let endpoint = coordinator.endpoint
        let unlisted = try BackgroundProcess([
            "worker", "--connect", endpoint, "--key", coordinator.unlisted.key,
            "--server-key", coordinator.server.pub, "--slots", "1",
        ])
        let wrongPin = try BackgroundProcess([
            "worker", "--connect", endpoint, "--key", coordinator.listed.key,
            "--server-key", other.pub, "--slots", "1",
        ])
        let plaintext = try BackgroundProcess(["worker", "--connect", endpoint, "--insecure", "--slots", "1"])
        let good = try BackgroundProcess([
            "worker", "--connect", endpoint, "--key", coordinator.listed.key,
            "--server-key", coordinator.server.pub, "--slots", "2",
        ])
        defer { for process in [unlisted, wrongPin, plaintext, good] { process.signal(SIGKILL) } }

        let finished = eventually(seconds: 120) {
            (try? CatalogQuery.count(
                coordinator.catalog,
                "SELECT COUNT(*) FROM tasks WHERE state IN ('done', 'failed')"
            )) == 12
        }
        #expect(finished, "\(coordinator.process.stderr)\n\(good.stderr)")
        let workers = try CatalogQuery.rows(coordinator.catalog, "SELECT id FROM workers").map { $0[0] }
        #expect(
            workers.count == 1 && workers.allSatisfy { $0.contains("-\(good.pid)-") },
            "only the good worker registered: \(workers)"
        )
        #expect(
            try CatalogQuery.count(
                coordinator.catalog,
                "SELECT COUNT(*) FROM attempts WHERE worker NOT LIKE '%-\(good.pid)-%'"
            ) == 0
        )
        // Each says its own cause (NetworkFailureTests has them all).
        for (name, process, words) in [
            ("unlisted", unlisted, "does not allow this worker's key"),
            ("wrong pin", wrongPin, "--server-key is most likely not its public key"),
            ("plaintext", plaintext, "requires CURVE but this worker runs --insecure"),
        ] {
            #expect(eventually(seconds: 20) { process.stderr.contains(words) }, "\(name): \(process.stderr)")
        }
        for process in [good, unlisted, wrongPin] {
            for secret in coordinator.secrets + [other.pair.secretKey] {
                #expect(!process.stderr.contains(secret), "no secret key in a worker's log")
            }
        }
    }

    /// Bad keys and flags: a clear message naming the flag and file, a usage exit status,
    /// and nothing overwritten.
    @Test func badKeysAndFlagsSayWhatToDo() throws {
        let directory = try temporaryDirectory()
        let keys = try TestKeys.generate("w", in: directory)
        let mode = try FileManager.default.attributesOfItem(atPath: keys.key)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let before = try String(contentsOfFile: keys.key, encoding: .utf8)
        let again = try PhotomillBinary.run(["keys", "generate", "--out", directory.appendingPathComponent("w").path])
        #expect(
            again.status != 0 && again.stderr.contains("w.key") && again.stderr.contains("exists"),
            "\(again.stderr)"
        )
        #expect(try String(contentsOfFile: keys.key, encoding: .utf8) == before, "an existing key is never overwritten")

        let photos = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let noKeys = try PhotomillBinary.run(["coordinator", "--bind", "tcp://127.0.0.1:1", photos.path])
        #expect(
            noKeys.status == 64 && noKeys.stderr.contains("--key") && noKeys.stderr.contains("--insecure"),
            "\(noKeys.stderr)"
        )
        let workerNoKeys = try PhotomillBinary.run(["worker", "--connect", "tcp://127.0.0.1:1"])
        #expect(workerNoKeys.status == 64 && workerNoKeys.stderr.contains("--server-key"), "\(workerNoKeys.stderr)")

        chmod(keys.key, 0o640)
        let exposed = try PhotomillBinary.run([
            "worker", "--connect", "tcp://127.0.0.1:1", "--key", keys.key, "--server-key", keys.pub,
        ])
        #expect(exposed.status == 64 && exposed.stderr.contains("chmod 600 \(keys.key)"), "\(exposed.stderr)")
        #expect(!exposed.stderr.contains(TestKeys.secretLine(keys.key)), "the secret is not printed")
        chmod(keys.key, 0o600)

        let badList = directory.appendingPathComponent("allow")
        try "\(keys.pair.publicKey) fine\nnot-a-key\n".write(to: badList, atomically: true, encoding: .utf8)
        let refused = try PhotomillBinary.run([
            "coordinator", "--bind", "tcp://127.0.0.1:1", "--key", keys.key, "--allow", badList.path,
            "--catalog", directory.appendingPathComponent("c.sqlite").path, photos.path,
        ])
        #expect(refused.status == 64 && refused.stderr.contains("\(badList.path):2"), "\(refused.stderr)")
    }
}

extension TestKeys {
    static func secretLine(_ path: String) -> String {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").last.map(String.init) ?? "?"
    }
}
