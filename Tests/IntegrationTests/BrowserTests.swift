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

/// The dashboard, its API and /metrics against the real binary, in a real run
/// (Tests/Browser/dashboard.py): headless Chromium through Playwright for the page,
/// `promtool check metrics` for the metrics, Python's sqlite3 as the reference for every
/// figure. One scenario at a time: each starts a coordinator, a worker and a browser.
@Suite(.serialized, .ownThread) struct BrowserTests {
    /// python3 with Playwright, Debian's chromium and prometheus's promtool (scripts/install-deps.sh).
    static let toolsReady: Bool = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import playwright.sync_api"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/promtool")
    }()

    static let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/dashboard.py")

    @Test(
        .enabled(
            if: toolsReady,
            "needs python3 with playwright, /usr/bin/chromium and /usr/bin/promtool (scripts/install-deps.sh): skipped"
        ),
        arguments: ["live", "token", "metrics", "pictures"]
    )
    func scenario(_ name: String) throws {
        var arguments = ["python3", Self.driver.path, "--photomill", PhotomillBinary.url.path, "--scenario", name]
        // The screenshots in docs/: dashboard.png, and library.png and duplicates.png in a folder.
        let environment = ProcessInfo.processInfo.environment
        if let screenshot = environment["PHOTOMILL_DASHBOARD_SCREENSHOT"], name == "live" {
            arguments += ["--screenshot", screenshot]
        }
        if let folder = environment["PHOTOMILL_PICTURES_SCREENSHOTS"], name == "pictures" {
            arguments += ["--screenshot", folder]
        }
        let run = try runScript("/usr/bin/env", arguments)
        #expect(run.status == 0, "\(run.output)")
    }
}
