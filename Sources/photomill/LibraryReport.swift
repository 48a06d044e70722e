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

/// The living library in `status --json` (`library`) and `/api/v1/library`: what the
/// coordinator watches, polls and leaves out, its scans, what waits to settle, and what the
/// scans skipped per reason. Times are ISO 8601.
struct LibraryReport: Encodable {
    struct FullScan: Encodable {
        let startedAt: String
        let seconds: Double
        let reason: String
    }
    /// Whether a coordinator holds the catalog now; the rest is what the last one wrote.
    let coordinatorRunning: Bool
    let watching: Bool
    let watchedFolders: Int
    let polledFolders: Int
    let polled: [LibraryWatch.PolledFolder]
    let watchLimit: Int
    let kernelWatchLimit: Int
    let exclude: [String]
    let ignoreFiles: [String]
    /// Photos an exclusion leaves out (missing while it does).
    let excludedPhotos: Int
    let settling: Int
    let settleSeconds: Double
    /// Photos processed while still changing (the settle bound ran out).
    let unsettledPhotos: Int
    let lastFullScan: FullScan?
    let nextFullScanAt: String?
    let rescanIntervalSeconds: Double
    let scanning: String?
    let scansWaiting: Int
    /// Files and folders left out, per reason (`photomill skipped` lists them).
    let skipped: [String: Int]
    let updatedAt: String?

    init(_ status: LibraryStatus) {
        let watch = status.watch ?? LibraryWatch()
        coordinatorRunning = status.coordinatorRunning
        watching = status.coordinatorRunning && watch.watching
        watchedFolders = watch.watchedFolders
        polledFolders = watch.polledFolders
        polled = watch.polled
        watchLimit = watch.watchLimit
        kernelWatchLimit = watch.kernelWatchLimit
        exclude = watch.excludePatterns
        ignoreFiles = watch.ignoreFiles
        excludedPhotos = status.excludedPhotos
        settling = status.coordinatorRunning ? watch.settling : 0
        settleSeconds = watch.settleSeconds
        unsettledPhotos = status.unsettledPhotos
        lastFullScan = watch.lastFullScan.map {
            FullScan(startedAt: isoTime($0.startedAt), seconds: ($0.seconds * 100).rounded() / 100, reason: $0.reason)
        }
        nextFullScanAt = status.coordinatorRunning ? watch.nextFullScanAt.map(isoTime) : nil
        rescanIntervalSeconds = watch.rescanIntervalSeconds
        scanning = status.coordinatorRunning ? watch.scanning : nil
        scansWaiting = status.scansWaiting
        skipped = Dictionary(uniqueKeysWithValues: status.skipped.map { ($0.key.rawValue, $0.value) })
        updatedAt = status.watchUpdatedAt.map(isoTime)
    }

    /// `status`'s lines about the library.
    func lines() -> [String] {
        var lines: [String] = []
        if coordinatorRunning {
            if watching {
                var line = "watching: \(watchedFolders) folders (inotify)"
                if polledFolders > 0 { line += ", \(polledFolders) polled every \(duration(rescanIntervalSeconds))" }
                line += " · settle \(Self.number(settleSeconds)) s"
                if settling > 0 { line += " · \(settling) changes settling" }
                lines.append(line)
            } else if polledFolders > 0 || watchedFolders == 0 {
                lines.append(
                    "watching: nothing (scans at start\(settling > 0 ? "; \(settling) changes settling" : ""))"
                )
            }
            for entry in polled.prefix(5) {
                let why =
                    switch entry.reason {
                    case "network": "on \(entry.detail ?? "a network file system"): changes made elsewhere are not seen"
                    case "watch-limit":
                        "past the watch limit (\(watchLimit)): raise fs.inotify.max_user_watches, or --max-watches"
                    default: "cannot be watched: \(entry.detail ?? "?")"
                    }
                lines.append("polled: \(entry.path) (\(why))")
            }
            if polled.count > 5 {
                lines.append("polled: … and \(polled.count - 5) more (status --json lists up to 100)")
            }
        }
        if let scan = lastFullScan {
            var line = "last full scan: \(scan.startedAt) (\(scan.reason)), \(Self.number(scan.seconds)) s"
            if let next = nextFullScanAt { line += "; next \(next)" }
            lines.append(line)
        }
        if let scanning { lines.append("scanning: \(scanning)") }
        if scansWaiting > 0 { lines.append("rescans asked for: \(scansWaiting) waiting") }
        if !exclude.isEmpty || !ignoreFiles.isEmpty || excludedPhotos > 0 {
            var parts = exclude.map { "--exclude '\($0)'" }
            if !ignoreFiles.isEmpty {
                parts.append(ignoreFiles.count == 1 ? ignoreFiles[0] : "\(ignoreFiles.count) .photomillignore files")
            }
            lines.append(
                "excluded: \(parts.isEmpty ? "" : parts.joined(separator: ", ") + "; ")\(excludedPhotos) photos left out"
            )
        }
        if unsettledPhotos > 0 {
            lines.append(
                "unsettled: \(unsettledPhotos) photos processed while still changing (the settle bound ran out); they are processed again when they change"
            )
        }
        let total = skipped.values.reduce(0, +)
        if total > 0 {
            let reasons = skipped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append(
                "skipped: \(total) \(total == 1 ? "file" : "files") (\(reasons)); `photomill skipped` lists them"
            )
        }
        return lines
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
