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

import Catalog
import Foundation
import PhotomillCore

/// The summary `photomill run` prints at the end: what this run found and did, then the
/// catalog's counts, then every failure it can show, each naming its file.
struct RunSummary {
    let status: CatalogStatus
    let scan: ScanSummary
    /// Tasks an earlier run left unfinished, found when this one began.
    let resumed: Int
    /// Tasks this run finished, done or failed.
    let finished: [TaskState: Int]
    let elapsed: Double
    let exportRoot: URL?
    let failures: [FailedTask]
    let folders: [UnreadableFolder]
    let restartedWorkers: Int

    func text() -> String {
        var lines: [String] = []
        var scanned = "scanned: \(scan.added) new, \(scan.changed) changed, \(scan.unchanged) unchanged photos"
        if scan.moved > 0 { scanned += ", \(scan.moved) moved" }
        if scan.missing > 0 { scanned += ", \(scan.missing) missing" }
        if scan.sidecarsChanged > 0 { scanned += ", \(scan.sidecarsChanged) changed sidecars" }
        lines.append(scanned + "; \(scan.queuedTasks) tasks queued")
        if scan.failed > 0 {
            lines.append(
                "named as photos but empty or not media: \(scan.failed) \(scan.failed == 1 ? "file" : "files"), failed (below)"
            )
        }
        if scan.excluded > 0 {
            lines.append("excluded: \(scan.excluded) photos now left out by --exclude or a .photomillignore")
        }
        if scan.skipped > 0 { lines.append(skippedLine(scan.skipped)) }
        if resumed > 0 { lines.append("resumed: \(resumed) tasks an earlier run left to do") }
        lines.append("this run: \(finished[.done] ?? 0) tasks done, \(finished[.failed] ?? 0) failed")
        lines.append(columns(["kind", "done", "failed", "pending", "leased"]))
        for kind in Kind.allCases where status.counts[kind] != nil {
            lines.append(
                columns(
                    [kind.rawValue]
                        + [TaskState.done, .failed, .pending, .leased].map { String(status.count(kind, $0)) }
                )
            )
        }
        for kind in Kind.allCases where status.paused[kind] != nil && status.count(kind, .pending) > 0 {
            lines.append(
                "paused: \(status.count(kind, .pending)) \(kind.rawValue) tasks wait; `photomill resume \(kind.rawValue)` lets them go on"
            )
        }
        for (kind, reason) in status.waitingWords.sorted(by: { $0.key < $1.key })
        where status.paused[kind] == nil && status.count(kind, .pending) > 0 {
            lines.append("waiting: \(status.count(kind, .pending)) \(kind.rawValue) tasks: \(reason)")
        }
        if !folders.isEmpty {
            lines.append("unreadable folders (read again by the next run):")
            lines += folders.map { "  \($0.message)" }
        }
        if !failures.isEmpty {
            lines.append("failed tasks (first \(failures.count); all with `photomill failed`):")
            for failure in failures {
                lines.append(
                    "  \(failure.path): \(failure.kind.rawValue) \(failure.errorClass?.rawValue ?? "?"): \(failure.cause)"
                )
            }
        }
        if status.missingPhotos > 0 {
            lines.append(
                "missing: \(status.missingPhotos) photos no longer found, left out above (`photomill forget --missing` removes them)"
            )
        }
        if restartedWorkers > 0 { lines.append("worker processes restarted after dying: \(restartedWorkers)") }
        if let exportRoot { lines.append("exports: \(exportRoot.path)") }
        lines.append("time: \(duration(elapsed))")
        return terminalText(lines)
    }
}

extension FailedTask {
    /// The message without the path it usually starts with (the line names the file first).
    var cause: String {
        guard let message = errorMessage, !message.isEmpty else { return "(no message)" }
        return message.hasPrefix(path + ": ") ? String(message.dropFirst(path.count + 2)) : message
    }
}

/// A table row: the first cell left-aligned in 10 columns, the others right-aligned in 9.
func columns(_ cells: [String]) -> String {
    guard let first = cells.first else { return "" }
    let rest = cells.dropFirst().map { String(repeating: " ", count: max(0, 9 - $0.count)) + $0 }
    return first.padding(toLength: max(10, first.count), withPad: " ", startingAt: 0) + rest.joined()
}

/// "skipped: N files (…)", in the singular for one.
func skippedLine(_ count: Int) -> String {
    "skipped: \(count) \(count == 1 ? "file" : "files") (`photomill skipped` lists them and why)"
}
