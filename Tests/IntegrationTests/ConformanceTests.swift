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

/// The PMILL conformance suite (Tests/Conformance/run.py, protocols/PROTOCOL.md "Writing a
/// worker in another language"): every scenario against the real coordinator, once with
/// the Python worker written from the spec alone and once with the Swift `photomill
/// worker`. A scenario passes when every hash is done exactly once and equals md5sum's and
/// sha256sum's, no protocol violation was counted, and every process exits 0 at the end.
/// One scenario at a time per worker (they time heartbeats of 300 ms), the two workers'
/// lines side by side: one line after the other was the suite's last 3 minutes.
@Suite(.ownThread(queued: false)) struct ConformanceTests {
    /// What both workers run.
    static let scenarios = [
        "path", "bytes", "extend", "worker-kill", "coordinator-restart", "restart-leases-out",
        "heartbeat-300", "heartbeat-1000", "heartbeat-5000", "curve", "curve-key-removed",
        "disconnect", "slow",
    ]
    /// What only the Python worker can be told to do wrong (run.py's PYTHON_ONLY): a READY
    /// without a heartbeat interval, READYs the coordinator must refuse, a FAIL held back
    /// to travel with a later RESULT.
    static let pythonOnly = ["heartbeat-unset", "ready-invalid", "fail-before-result"]

    /// Debian's python3 with python3-zmq and python3-protobuf (scripts/install-deps.sh).
    static let pythonReady: Bool = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        probe.arguments = ["-c", "import zmq, google.protobuf"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    static let suite = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Conformance/run.py")

    static func run(worker: String, scenario name: String) throws {
        let run = try runScript(
            "/usr/bin/python3",
            [
                suite.path, "--photomill", PhotomillBinary.url.path, "--worker", worker,
                "--scenario", name,
            ]
        )
        #expect(run.status == 0, "\(run.output)")
    }

    @Suite(.serialized) struct PythonWorker {
        @Test(
            .enabled(
                if: pythonReady,
                "needs /usr/bin/python3 with python3-zmq and python3-protobuf (scripts/install-deps.sh): skipped"
            ),
            arguments: scenarios + pythonOnly
        )
        func scenario(_ name: String) throws { try ConformanceTests.run(worker: "python", scenario: name) }
    }

    @Suite(.serialized) struct SwiftWorker {
        @Test(
            .enabled(
                if: pythonReady,
                "needs /usr/bin/python3 with python3-zmq and python3-protobuf (scripts/install-deps.sh): skipped"
            ),
            arguments: scenarios
        )
        func scenario(_ name: String) throws { try ConformanceTests.run(worker: "swift", scenario: name) }
    }
}
