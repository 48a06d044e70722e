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

/// Three "hosts" on one machine: the coordinator and two workers, each in its own
/// Linux network namespace with its own address, joined by veth pairs, CURVE on. Worker 1
/// reads the photo folder itself; worker 2's roots do not hold it, so it gets every photo
/// as bytes. Worker 2's link is cut (`ip link set … down`) mid-run and restored.
/// Needs root and `ip netns` (iproute2); skipped otherwise.
@Suite(.serialized, .ownThread) struct MultiHostTests {
    @Test(.enabled(if: Namespaces.available, "needs root and `ip netns` (iproute2): the multi-host test is skipped"))
    func clusterAcrossNamespacesSurvivesACutLink() throws {
        let directory = try temporaryDirectory()
        let catalog = directory.appendingPathComponent("catalog.sqlite")
        let photos: URL
        var expected: [String: String] = [:]  // path → MD5 from an independent source
        if Corpus.isAvailable {
            photos = Corpus.root.appendingPathComponent("photos")
            let manifest = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: Corpus.root.appendingPathComponent("manifest.json"))
                ) as? [String: Any]
            )
            for file in manifest["files"] as? [[String: Any]] ?? [] where file["kind"] as? String == "photo" {
                expected[Corpus.root.appendingPathComponent(file["path"] as! String).path] = file["md5"] as? String
            }
        } else {
            print("../shared/corpus is absent: the multi-host test uses 40 generated samples")
            photos = directory.appendingPathComponent("photos")
            _ = try PhotomillBinary.run(["samples", photos.path, "--count", "40", "--seed", "31"])
        }
        let elsewhere = directory.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let server = try TestKeys.generate("coordinator", in: directory)
        let worker = try TestKeys.generate("worker", in: directory)
        try String(contentsOfFile: worker.pub, encoding: .utf8).write(
            to: directory.appendingPathComponent("allow"),
            atomically: true,
            encoding: .utf8
        )

        let net = try Namespaces()
        defer { net.remove() }
        let coordinator = try BackgroundProcess(
            [
                "coordinator", "--bind", "tcp://*:5555", "--key", server.key, "--allow",
                directory.appendingPathComponent("allow").path,
                "--catalog", catalog.path, "--no-exports", "--kinds", "hash,metadata,thumbnail", photos.path,
            ],
            netns: net.coordinator
        )
        defer { coordinator.signal(SIGKILL) }
        let keys = ["--key", worker.key, "--server-key", server.pub, "--slots", "1"]
        let reader = try BackgroundProcess(
            ["worker", "--connect", "tcp://\(net.coordinatorAddress(1)):5555", "--root", photos.path] + keys,
            netns: net.workers[0]
        )
        let remote = try BackgroundProcess(
            ["worker", "--connect", "tcp://\(net.coordinatorAddress(2)):5555", "--root", elsewhere.path] + keys,
            netns: net.workers[1]
        )
        defer { for process in [reader, remote] { process.signal(SIGKILL) } }
        let remoteDone = "SELECT COUNT(*) FROM attempts WHERE outcome = 'done' AND worker LIKE '%-\(remote.pid)-%'"
        let remoteState = "SELECT state FROM workers WHERE id LIKE '%-\(remote.pid)-%'"

        // Cut worker 2's link once it has done some work over the wire; the coordinator
        // must take it for dead, and take it back once the link returns.
        #expect(
            eventually(seconds: 120) { ((try? CatalogQuery.count(catalog, remoteDone)) ?? 0) >= 3 },
            "the remote worker gets bytes and works: \(coordinator.stderr)\n\(remote.stderr)"
        )
        try net.setLink(of: 1, up: false)
        #expect(
            eventually(seconds: 30) { (try? CatalogQuery.rows(catalog, remoteState).first?.first) == "gone" },
            "the coordinator notices the cut link"
        )
        try net.setLink(of: 1, up: true)
        #expect(
            eventually(seconds: 60) { (try? CatalogQuery.rows(catalog, remoteState).first?.first) == "connected" },
            "the remote worker comes back: \(remote.stderr)"
        )

        let total = try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks")
        #expect(total > 0)
        #expect(
            eventually(seconds: 240) {
                (try? CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE state IN ('done', 'failed')"))
                    == total
            },
            "\(coordinator.stderr)"
        )
        #expect(
            try CatalogQuery.count(
                catalog,
                "SELECT COUNT(*) FROM (SELECT photoId, kind FROM attempts WHERE outcome = 'done' GROUP BY photoId, kind HAVING COUNT(*) > 1)"
            ) == 0,
            "nothing committed twice"
        )
        #expect(
            try CatalogQuery.count(
                catalog,
                "SELECT COUNT(*) FROM attempts WHERE outcome = 'done' AND worker LIKE '%-\(reader.pid)-%'"
            ) > 0
        )
        let hashed = try CatalogQuery.rows(catalog, "SELECT path, md5 FROM photos WHERE md5 IS NOT NULL")
        if expected.isEmpty {
            #expect(hashed.count >= 30)
        } else {
            let md5s = Dictionary(uniqueKeysWithValues: hashed.map { ($0[0], $0[1]) })
            for (path, md5) in expected { #expect(md5s[path] == md5, "\(path)") }
        }
        coordinator.signal(SIGTERM)
        #expect(coordinator.wait(seconds: 20) == 0)
    }
}

/// Network namespaces for one test: `c` (the coordinator) and `w1`, `w2`, each joined to
/// `c` by a veth pair on its own /24. Removed by `remove()`, also after a failure.
final class Namespaces {
    let coordinator: String
    let workers: [String]
    private let tag: String
    private let octet = 200 + Int(getpid() % 50)

    static let available: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") else { return false }
        let probe = "pmprobe\(getpid())"
        guard (try? ip(["netns", "add", probe])) != nil else { return false }
        _ = try? ip(["netns", "del", probe])
        return true
    }()

    init() throws {
        tag = String(getpid() % 100_000)
        coordinator = "pm\(tag)c"
        workers = ["pm\(tag)w1", "pm\(tag)w2"]
        do {
            for name in [coordinator] + workers {
                try Self.ip(["netns", "add", name])
                try Self.ip(["-n", name, "link", "set", "lo", "up"])
            }
            for (index, worker) in workers.enumerated() {
                let n = index + 1
                try Self.ip([
                    "link", "add", "pc\(n)x\(tag)", "netns", coordinator, "type", "veth", "peer", "name",
                    "pw\(n)x\(tag)", "netns", worker,
                ])
                try Self.ip(["-n", coordinator, "addr", "add", "\(coordinatorAddress(n))/24", "dev", "pc\(n)x\(tag)"])
                try Self.ip(["-n", worker, "addr", "add", "10.\(octet).\(n).2/24", "dev", "pw\(n)x\(tag)"])
                try Self.ip(["-n", coordinator, "link", "set", "pc\(n)x\(tag)", "up"])
                try Self.ip(["-n", worker, "link", "set", "pw\(n)x\(tag)", "up"])
            }
        } catch {
            remove()
            throw error
        }
    }

    func coordinatorAddress(_ n: Int) -> String { "10.\(octet).\(n).1" }

    /// Worker `index`'s end of its link, down or up.
    func setLink(of index: Int, up: Bool) throws {
        try Self.ip(["-n", workers[index], "link", "set", "pw\(index + 1)x\(tag)", up ? "up" : "down"])
    }

    func remove() {
        for name in [coordinator] + workers { _ = try? Self.ip(["netns", "del", name]) }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    @discardableResult
    static func ip(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "ip \(arguments.joined(separator: " ")): \(output)")
        }
        return output
    }
}
