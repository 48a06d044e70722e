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

import ArgumentParser
import Catalog
import Foundation
import PhotomillCore

extension Photomill {
    struct ScanCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scan",
            abstract:
                "Ask the running coordinator to scan its folders again now (all, or the ones named), and wait until it has.",
            discussion: """
                Through the catalog, as `pause` is: it works from any shell on the coordinator's host. \
                The coordinator watches its folders and rescans on its own schedule; this is for what \
                it cannot see (a network share changed from another host, a folder past the watch \
                limit) or to be sure now. Paths gone are marked missing; new ones recorded; SIGHUP \
                (`systemctl reload`) and POST /api/v1/scan ask for the same. Exits 69 when no \
                coordinator holds the catalog (`photomill run` scans when it starts).
                """
        )

        @OptionGroup var catalog: CatalogFlags

        @Flag(help: "Ask, and return without waiting for the scan to finish.")
        var noWait = false

        @Flag(help: "Print one JSON object.")
        var json = false

        @Argument(
            help: ArgumentHelp(
                "Folders or files under the coordinator's photo folders (default: all of them).",
                valueName: "PATH"
            )
        )
        var paths: [String] = []

        func run() throws {
            let catalog = try catalog.open(.readWrite, mustExist: true)
            guard catalog.runningCoordinator != nil else {
                printError(
                    "photomill scan: no coordinator runs on \(catalog.path): start one (`photomill coordinator DIR…` or `photomill run --watch DIR…`); `photomill run DIR` scans when it starts"
                )
                throw ExitCode.unavailable
            }
            let absolute = paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            let started = MonotonicInstant.now()
            let id = try catalog.requestScan(
                paths: absolute.isEmpty ? nil : absolute,
                origin: "command",
                now: WallClock.now()
            )
            let what = absolute.isEmpty ? "every folder" : absolute.map(PathBytes.display).joined(separator: ", ")
            if noWait {
                print(
                    json
                        ? jsonLine(ScanAnswer(request: id, paths: absolute.isEmpty ? nil : absolute, done: false))
                        : "asked the coordinator to scan \(what) (request \(id))"
                )
                return
            }
            while true {
                if let request = try catalog.scanRequest(id: id), request.finishedAt != nil {
                    let summary = request.summary ?? ScanSummary()
                    let seconds = MonotonicInstant.now() - started
                    if json {
                        print(
                            jsonLine(
                                ScanAnswer(
                                    request: id,
                                    paths: absolute.isEmpty ? nil : absolute,
                                    done: true,
                                    seconds: seconds,
                                    summary: summary
                                )
                            )
                        )
                    } else {
                        print(
                            "scanned \(what) in \(String(format: "%.1f", seconds)) s: \(summary.added) new, \(summary.changed) changed, "
                                + "\(summary.unchanged) unchanged, \(summary.moved) moved, \(summary.missing) missing, \(summary.excluded) excluded, "
                                + "\(summary.failed) failed, \(summary.skipped) skipped; \(summary.queuedTasks) tasks queued"
                        )
                    }
                    return
                }
                guard catalog.runningCoordinator != nil else {
                    printError(
                        "photomill scan: the coordinator stopped before it scanned (request \(id) stays; the next coordinator scans everything when it starts)"
                    )
                    throw ExitCode.unavailable
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }
}

/// `scan --json`: the request, and when done how long it took and what it found.
struct ScanAnswer: Encodable {
    let request: Int64
    let paths: [String]?
    let done: Bool
    var seconds: Double?
    var summary: ScanSummary?
}
