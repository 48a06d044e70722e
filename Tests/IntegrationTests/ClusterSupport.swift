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

/// A `photomill` process running in the background (coordinator or worker).
typealias BackgroundProcess = ChildProcess

extension ChildProcess {
    /// The built photomill with `arguments`. `netns`: run inside that network namespace
    /// (`ip netns exec` execs in place, so `pid` is photomill's). `launcher`: a command that
    /// execs photomill in place, given as its first argument. `environment` adds to (or
    /// overrides) this process's environment.
    convenience init(
        _ arguments: [String],
        in directory: URL? = nil,
        netns: String? = nil,
        launcher: [String]? = nil,
        environment: [String: String] = [:]
    ) throws {
        let command: [String]
        if let netns {
            command = ["/usr/sbin/ip", "netns", "exec", netns, PhotomillBinary.url.path]
        } else if let launcher, !launcher.isEmpty {
            command = launcher + [PhotomillBinary.url.path]
        } else {
            command = [PhotomillBinary.url.path]
        }
        try self.init(
            URL(fileURLWithPath: command[0]),
            Array(command.dropFirst()) + arguments,
            in: directory,
            environment: environment
        )
    }

    /// The endpoints a coordinator bound, as its "listening on" line gives them (read back
    /// from the socket: a `tcp://127.0.0.1:*` bind gets a port the kernel chose, which no
    /// other process can have). Needs the coordinator's log at `info` (the default).
    func boundEndpoints(seconds: Double = 60) throws -> [String] {
        var found: [String]?
        _ = eventually(seconds: seconds) {
            found = stderr.split(separator: "\n").first { $0.hasSuffix("listening on") }
                .flatMap { line in line.split(separator: " ").first { $0.hasPrefix("endpoints=") } }
                .map { $0.dropFirst("endpoints=".count).split(separator: ",").map(String.init) }
            return found != nil || !isRunning
        }
        guard let found, !found.isEmpty else {
            throw ToolFailure("the coordinator never said where it listens: \(stderr)")
        }
        return found
    }

    /// The one endpoint a coordinator bound.
    func boundEndpoint(seconds: Double = 60) throws -> String { try boundEndpoints(seconds: seconds)[0] }
}

/// A loopback endpoint a coordinator binds with a port the kernel picks.
let anyLoopbackPort = "tcp://127.0.0.1:*"

/// Reads the catalog with Python's sqlite3 module: an independent reader of the file.
enum CatalogQuery {
    static func rows(_ catalog: URL, _ sql: String) throws -> [[String]] {
        // stderr ignored: "unable to open" while a catalog is being created.
        try Tool.run(
            "python3",
            [
                "-c",
                """
                import sqlite3, sys
                con = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True, timeout=10)
                for row in con.execute(sys.argv[2]):
                    print('\\t'.join('' if v is None else str(v) for v in row))
                """, catalog.path, sql,
            ]
        ).lines.map { $0.components(separatedBy: "\t") }
    }

    static func count(_ catalog: URL, _ sql: String) throws -> Int {
        Int(try rows(catalog, sql).first?.first ?? "") ?? -1
    }
}

/// A coordinator for `photos` (hash only) on an ipc socket in `directory`, and one worker
/// of one slot without --root: every photo comes to it as bytes. Both end with this value.
struct BytesFedCluster {
    let catalog: URL
    let coordinator: BackgroundProcess
    let worker: BackgroundProcess

    init(directory: URL, photos: URL) throws {
        catalog = directory.appendingPathComponent("catalog.sqlite")
        let endpoint = "ipc://\(directory.path)/coordinator.sock"
        coordinator = try BackgroundProcess([
            "coordinator", "--bind", endpoint, "--catalog", catalog.path, "--no-exports",
            "--kinds", "hash", photos.path,
        ])
        // A worker that connects before the socket exists may give its first connection up
        // (and the JOB sent on it, until its lease ends) while the coordinator starts.
        _ = try coordinator.boundEndpoint()
        worker = try BackgroundProcess(["worker", "--connect", endpoint, "--slots", "1"])
    }
}
