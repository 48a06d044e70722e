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

/// The dashboard's door and the coordinator's descriptors against the real binary
/// (Tests/Hardening/door.py, loopback only; docs/operations.md, "Dashboard: access" and
/// "Limits"): every spelling of every data route wants the token, and a flood of idle HTTP
/// or ZMTP connections (1,100 and 3,000, under `prlimit --nofile=1024`) slows the dashboard but never
/// stops the coordinator or its worker. Python's raw sockets write every request byte;
/// its sqlite3 reads the catalog.
@Suite(.serialized, .ownThread) struct DashboardDoorTests {
    static let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Hardening/door.py")

    @Test(arguments: ["spellings", "http-flood", "zmtp-flood"])
    func scenario(_ name: String) throws {
        let run = try runScript(
            "/usr/bin/env",
            ["python3", Self.driver.path, "--photomill", PhotomillBinary.url.path, "--scenario", name]
        )
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("figures: "))
    }
}
