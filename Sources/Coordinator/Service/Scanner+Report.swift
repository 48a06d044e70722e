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
import Logging
import PhotomillCore

extension Scanner {
    /// The scanner's schedule and what it last told the catalog.
    struct ReportState {
        var nextFullScan = MonotonicInstant(nanoseconds: Int64.max / 4)
        var nextFullScanAt: Double?
        var nextRequestLook = MonotonicInstant.distantPast
        var lastFullScan: LibraryWatch.FullScan?
        var scanning: String?
        var written: LibraryWatch?
        var writtenAt = MonotonicInstant.distantPast
        /// The polled folders last reported in the log.
        var polledNoted = 0
    }

    /// What the coordinator watches, for `status` and the dashboard.
    var libraryWatch: LibraryWatch {
        var watch = LibraryWatch()
        let table = watcher?.table
        watch.watching = table != nil
        watch.watchedFolders = table?.watchedCount ?? 0
        if let polled = table?.polledFolders() {
            (watch.polledFolders, watch.polled) = polled
        }
        watch.watchLimit = table?.limit ?? 0
        watch.kernelWatchLimit = LibraryConfiguration.kernelWatchLimit() ?? 0
        let current = exclusions.current
        watch.excludePatterns = current.commandLine
        watch.ignoreFiles = current.files.keys.sorted().map { Self.join($0, Exclusions.fileName) }
        watch.settling = watcher?.settling ?? 0
        watch.settleSeconds = library.settle
        watch.rescanIntervalSeconds = library.rescanInterval
        watch.lastFullScan = report.lastFullScan
        watch.nextFullScanAt = report.nextFullScanAt
        watch.scanning = report.scanning
        return watch
    }

    /// Writes `libraryWatch` when it changed, at most once a second (`force`: now).
    func writeReport(force: Bool = false) {
        let now = MonotonicInstant.now()
        guard force || now - report.writtenAt >= 1 else { return }
        let watch = libraryWatch
        guard watch != report.written else { return }
        do {
            try catalog.writeLibraryWatch(watch, now: WallClock.now())
            report.written = watch
            report.writtenAt = now
        } catch {
            logger.warning("cannot record what is watched", metadata: ["error": "\(error)"])
        }
    }

    /// After a full scan: when the watch budget ran out, how many folders are watched,
    /// which are polled, and how to watch them all (said again only when it changes).
    func noteWatchLimit() {
        guard let table = watcher?.table else { return }
        let (count, topmost) = table.polledFolders(limit: 10)
        let limited = topmost.filter { $0.reason == "watch-limit" }
        guard !limited.isEmpty, count != report.polledNoted else {
            report.polledNoted = count
            return
        }
        report.polledNoted = count
        let kernel = LibraryConfiguration.kernelWatchLimit() ?? 0
        let needed = table.watchedCount + count
        logger.warning(
            """
            watching \(table.watchedCount) folders, the most this coordinator may watch (\(table.limit): \
            \(library.maxWatches == nil ? "90 % of fs.inotify.max_user_watches = \(kernel)" : "--max-watches")); \
            \(count) folders are polled on the rescan schedule instead; to watch them all, raise the limit: \
            sysctl fs.inotify.max_user_watches=\(max(kernel, needed * 2)) (and a file in /etc/sysctl.d/ to keep it), \
            or --max-watches \(needed)
            """,
            metadata: [
                "folders.watched": "\(table.watchedCount)", "folders.polled": "\(count)",
                "polled": "\(limited.map(\.path).joined(separator: ", "))\(count > limited.count ? ", …" : "")",
            ]
        )
    }
}
