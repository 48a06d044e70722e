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
internal import GRDB
import PhotomillCore

/// What a running coordinator watches, polls and leaves out, written for `status` and the
/// dashboard (`library_watch`, one row, rewritten when it changes and at most once a second).
public struct LibraryWatch: Sendable, Hashable, Codable {
    /// Whether changes are watched at all (`coordinator`, `run --watch`); false for a batch `run`.
    public var watching = false
    /// Folders with an inotify watch.
    public var watchedFolders = 0
    /// Folders not watched, checked by the scheduled rescans instead: the count, and the
    /// topmost of them (at most 100) with the reason each is polled.
    public var polledFolders = 0
    public var polled: [PolledFolder] = []
    /// The most watches this coordinator may hold (`--max-watches`, else a share of
    /// `fs.inotify.max_user_watches`), and the kernel's limit.
    public var watchLimit = 0
    public var kernelWatchLimit = 0
    /// `--exclude` as given, and the `.photomillignore` files in force.
    public var excludePatterns: [String] = []
    public var ignoreFiles: [String] = []
    /// Changes waiting to settle, and the window (`--settle`).
    public var settling = 0
    public var settleSeconds: Double = 2
    public var rescanIntervalSeconds: Double = 6 * 3600
    /// The last full scan: when it started (wall clock), how long it took, why it ran.
    public var lastFullScan: FullScan?
    /// When the next scheduled one is due (wall clock).
    public var nextFullScanAt: Double?
    /// A scan under way: what it is.
    public var scanning: String?

    public struct PolledFolder: Sendable, Hashable, Codable {
        public var path: String
        /// Why: `network` (with `fileSystem`), `watch-limit`, or `cannot-watch` (with the cause).
        public var reason: String
        public var detail: String?

        public init(path: String, reason: String, detail: String? = nil) {
            self.path = path
            self.reason = reason
            self.detail = detail
        }
    }

    public struct FullScan: Sendable, Hashable, Codable {
        public var startedAt: Double
        public var seconds: Double
        /// `start`, `schedule`, `overflow`, `watch-failed`, `request` (`photomill scan`, the API, SIGHUP).
        public var reason: String

        public init(startedAt: Double, seconds: Double, reason: String) {
            self.startedAt = startedAt
            self.seconds = seconds
            self.reason = reason
        }
    }

    public init() {}
}

extension Catalog {
    public func writeLibraryWatch(_ watch: LibraryWatch, now: Double) throws(CatalogError) {
        let json = String(decoding: (try? JSONEncoder().encode(watch)) ?? Data(), as: UTF8.self)
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO library_watch (id, report, updatedAt) VALUES (1, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET report = excluded.report, updatedAt = excluded.updatedAt
                    """,
                arguments: [json, now]
            )
        }
    }

    /// What the coordinator last wrote, and when; nil when none ever ran on this catalog
    /// since it learned to (migration v10-living-library).
    public func libraryWatch() throws(CatalogError) -> (watch: LibraryWatch, updatedAt: Double)? {
        try read { db in try Self.libraryWatch(db) }
    }

    static func libraryWatch(_ db: Database) throws -> (watch: LibraryWatch, updatedAt: Double)? {
        guard let row = try Row.fetchOne(db, sql: "SELECT report, updatedAt FROM library_watch WHERE id = 1"),
            let watch = try? JSONDecoder().decode(LibraryWatch.self, from: Data((row["report"] as String).utf8))
        else { return nil }
        return (watch, row["updatedAt"])
    }
}

/// The living library as `status` and the dashboard show it: what the coordinator
/// watches (as it last wrote), what the scans left out and why, photos excluded or
/// processed before they settled, rescans asked for and not yet done.
public struct LibraryStatus: Sendable, Hashable {
    public var watch: LibraryWatch?
    /// When the coordinator last wrote `watch` (wall clock).
    public var watchUpdatedAt: Double?
    public var skipped: [SkipReason: Int] = [:]
    /// Photos an exclusion rule leaves out (counted among the missing).
    public var excludedPhotos = 0
    /// Photos processed while still changing (the settle bound ran out).
    public var unsettledPhotos = 0
    /// Rescans asked for that have not finished.
    public var scansWaiting = 0
    /// Whether a coordinator holds the catalog now (`watch` is what the last one wrote).
    public var coordinatorRunning = false
}

extension Catalog {
    /// The coordinator (`run` or `coordinator`) that holds this catalog now; nil when none runs.
    public var runningCoordinator: CatalogHolder? { CatalogLock.liveHolder(catalog: path) }

    public func libraryStatus() throws(CatalogError) -> LibraryStatus {
        try read { db in
            var status = LibraryStatus()
            status.coordinatorRunning = CatalogLock.liveHolder(catalog: path) != nil
            if let (watch, updatedAt) = try Self.libraryWatch(db) {
                status.watch = watch
                status.watchUpdatedAt = updatedAt
            }
            status.skipped = try Self.skippedCounts(db)
            status.excludedPhotos =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM photos INDEXED BY photos_missing WHERE missingAt IS NOT NULL AND excludedBy IS NOT NULL
                        """
                ) ?? 0
            status.unsettledPhotos =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photos WHERE unsettledAt IS NOT NULL") ?? 0
            status.scansWaiting =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM scan_requests WHERE finishedAt IS NULL") ?? 0
            return status
        }
    }
}
