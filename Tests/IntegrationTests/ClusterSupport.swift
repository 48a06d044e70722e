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
import GRDBSQLite
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

/// Reads the catalog with SQLite's own C API, in this process: an independent reader of
/// the file (none of photomill's code, the library Python's sqlite3 module wraps). Each
/// query opens the file read-only, waits up to 10 s for a writer's lock, and closes it
/// again, as the Python one-liner it replaces did at 70 ms of CPU a query (a test waiting
/// on the catalog asks it every few tens of milliseconds).
///
/// Rows come as that one-liner printed and the tests read them: values as Python's
/// `str()` shows them (NULL as ""), a row whose text is empty left out, and a file that
/// cannot be opened yet (a catalog being created) no rows.
enum CatalogQuery {
    static func rows(_ catalog: URL, _ sql: String) throws -> [[String]] {
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        guard sqlite3_open_v2(catalog.path, &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return [] }
        sqlite3_busy_timeout(connection, 10_000)
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK else { return [] }
        var rows: [[String]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            var row: [String] = []
            for column in 0..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_NULL: row.append("")
                case SQLITE_INTEGER: row.append(String(sqlite3_column_int64(statement, column)))
                case SQLITE_FLOAT: row.append("\(sqlite3_column_double(statement, column))")
                default:
                    // Python stops at text that is not UTF-8 ("Could not decode to UTF-8").
                    let bytes =
                        sqlite3_column_blob(statement, column).map {
                            Array(
                                UnsafeRawBufferPointer(start: $0, count: Int(sqlite3_column_bytes(statement, column)))
                            )
                        } ?? []
                    guard let text = String(validating: bytes, as: UTF8.self) else { return rows }
                    row.append(text)
                }
            }
            if row.joined(separator: "\t").isEmpty { continue }
            rows.append(row)
        }
        return rows
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
