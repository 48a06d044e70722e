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

/// A new, empty folder of its own, named `prefix-UUID`, in this test process's folder
/// (`testFiles`).
public func temporaryDirectory(_ prefix: String = "photomill-test") throws -> URL {
    let url = testFiles.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A path for a file that does not exist yet, in this test process's folder (`testFiles`).
public func temporaryFile(_ prefix: String = "photomill-test", extension suffix: String = "") -> URL {
    testFiles.appendingPathComponent("\(prefix)-\(UUID().uuidString)" + (suffix.isEmpty ? "" : ".\(suffix)"))
}

/// The folder of this test process's temporary files, `$TMPDIR/pm-tests-PID`, removed
/// when the process exits: each whole suite left its folders of catalogs, photos and logs
/// to the system's cleaning (11,759 in this box's /tmp after a day of runs). Set
/// `PHOTOMILL_KEEP_TEST_FILES` to keep them, to read a failed test's files. The name is
/// short: tests bind `ipc://` sockets below it, whose paths the kernel limits to 107 bytes.
public let testFiles: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("pm-tests-\(getpid())")
    // 0755 under the usual umask: tests that run a program as an unprivileged user
    // (AccidentSupport) give that user its own folders below.
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    if ProcessInfo.processInfo.environment["PHOTOMILL_KEEP_TEST_FILES"] == nil {
        atexit { try? FileManager.default.removeItem(at: testFiles) }
    }
    return url
}()
