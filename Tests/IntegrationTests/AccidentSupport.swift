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

/// The permission tests (docs/reliability.md, "Accidents") run photomill as an unprivileged
/// user when the suite runs as root, as CI does: root reads and writes through any mode.
enum Unprivileged {
    static let isRoot = getuid() == 0

    /// Runs photomill as `nobody` (setpriv) when root, with a copy of the binary in a folder
    /// it may read (the checkout may not be); as this user otherwise.
    static let launcher: [String] = {
        guard isRoot else { return [PhotomillBinary.url.path] }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photomill-unprivileged-\(getpid())")
        let copy = folder.appendingPathComponent("photomill")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: copy.path) {
            try? FileManager.default.copyItem(at: PhotomillBinary.url, to: copy)
        }
        chmod(folder.path, 0o755)
        chmod(copy.path, 0o755)
        return ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", copy.path]
    }()

    /// Gives a folder and everything in it to the unprivileged user (when root).
    static func own(_ url: URL) throws {
        guard isRoot else { return }
        try Tool.output("chown", ["-R", "nobody:nogroup", url.path])
    }

    /// A folder the unprivileged user may read but not write: root's with mode 0755 when
    /// root, else this user's with 0555.
    static func readOnly(_ url: URL) {
        chmod(url.path, isRoot ? 0o755 : 0o555)
    }

    static func run(_ arguments: [String], in directory: URL? = nil) throws -> PhotomillBinary.Outcome {
        try PhotomillBinary.run(arguments, in: directory, launcher: launcher)
    }
}

extension Tool {
    /// md5sum(1) of a file: the reference the tests compare content with.
    static func md5(_ path: String) throws -> String {
        String(try output("md5sum", [path]).prefix(32))
    }

    /// hostname(1).
    static func hostName() throws -> String {
        try value("hostname", [])
    }
}

/// Python's sqlite3 holding a write transaction on a catalog (a `sqlite3` shell, a backup
/// tool) for some seconds. Returns once the lock is held.
func lockCatalog(_ catalog: URL, seconds: Double) throws -> ChildProcess {
    let locker = try ChildProcess(
        URL(fileURLWithPath: "/usr/bin/python3"),
        [
            "-c",
            """
            import sqlite3, sys, time
            con = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
            con.execute('BEGIN IMMEDIATE')
            print('locked', flush=True)
            time.sleep(float(sys.argv[2]))
            con.execute('COMMIT')
            """, catalog.path, String(seconds),
        ]
    )
    guard locker.waitForOutput(containing: "locked", on: .stdout, seconds: 60) else {
        throw ToolFailure("python3 never locked \(catalog.path): \(locker.stderr)")
    }
    return locker
}

/// The child processes of `pid` (the workers `run` started), from /proc.
func childProcesses(of pid: Int32) -> [Int32] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.flatMap { task in
        ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
            .split(separator: " ").compactMap { Int32($0) }
    }
}

/// What no message may show: a library's internals instead of a cause a person can act on.
let libraryInternals = ["grdb_issue_102", "NSCocoaErrorDomain", "SQLite error", "while executing", "Error Domain="]

func expectNoInternals(_ text: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for word in libraryInternals {
        #expect(!text.contains(word), "\(context): \(text)", sourceLocation: sourceLocation)
    }
}
