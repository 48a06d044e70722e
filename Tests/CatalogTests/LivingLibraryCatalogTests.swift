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
import GRDB
import PhotomillCore
import Testing

@testable import Catalog

/// What the scan writes when the library changes under a running coordinator: a folder
/// renamed in one transaction, paths gone, paths excluded, files named as media that are
/// not, and a rewrite seen by its change time. The expected rows are worked out by hand.
@Suite struct LivingLibraryCatalogTests {
    let catalog: Catalog
    let all = Set(Kind.allCases)

    init() throws {
        catalog = try Catalog(path: try freshCatalogPath("living"))
    }

    private func media(
        _ path: String,
        size: Int64 = 100,
        mtime: Int64 = 1_000,
        ctime: Int64? = 5,
        sidecar: Sidecar? = nil
    ) -> ScannedFile {
        ScannedFile(
            path: path,
            size: size,
            mtimeNs: mtime,
            ctimeNs: ctime,
            recognition: .media(.jpeg),
            sidecar: sidecar
        )
    }

    private func rows(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        try catalog.pool.read { db in try Row.fetchAll(db, sql: sql, arguments: arguments) }
    }

    private func ids() throws -> [String: Int64] {
        Dictionary(
            uniqueKeysWithValues: try rows("SELECT path, id FROM photos").map {
                ($0["path"] as String, $0["id"] as Int64)
            }
        )
    }

    @Test func aRenamedFolderKeepsEveryPhotoAndQueuesNothing() throws {
        var files = (0..<1000).map {
            media(
                "/lib/trip/IMG_\($0).jpg",
                sidecar: $0 == 0 ? Sidecar(path: "/lib/trip/IMG_0.jpg.xmp", size: 3, mtimeNs: 2) : nil
            )
        }
        files.append(media("/lib/trip/deep/a.jpg"))
        files.append(media("/lib/trip2/b.jpg"))  // a sibling whose name extends the folder's
        _ = try catalog.record(files, kinds: all, now: 1)
        _ = try catalog.record(
            [ScannedFile(path: "/lib/trip/notes.txt", size: 4, mtimeNs: 1, recognition: .skipped(.notMedia))],
            kinds: all,
            now: 1
        )
        // A missing photo whose path one of them is about to take.
        _ = try catalog.record([media("/lib/2024/IMG_5.jpg", size: 7)], kinds: all, now: 1)
        _ = try catalog.markGone(["/lib/2024"], now: 2)
        let before = try ids()
        let tasksBefore = try rows("SELECT COUNT(*) AS n FROM tasks")[0]["n"] as Int

        let moved = try catalog.moveFolder(from: "/lib/trip", to: "/lib/2024", now: 3)
        #expect(moved.count == 1001)
        let after = try ids()
        #expect(after["/lib/2024/IMG_0.jpg"] == before["/lib/trip/IMG_0.jpg"])
        #expect(after["/lib/2024/IMG_999.jpg"] == before["/lib/trip/IMG_999.jpg"])
        #expect(after["/lib/2024/deep/a.jpg"] == before["/lib/trip/deep/a.jpg"])
        #expect(after["/lib/trip2/b.jpg"] == before["/lib/trip2/b.jpg"], "a sibling is no subfolder")
        #expect(after["/lib/2024/IMG_5.jpg"] == before["/lib/trip/IMG_5.jpg"], "the missing row of that path went")
        #expect(!after.keys.contains { $0.hasPrefix("/lib/trip/") })
        #expect(
            try rows("SELECT sidecarPath, stem FROM photos WHERE path = '/lib/2024/IMG_0.jpg'")
                .map { "\($0["sidecarPath"] as String) \($0["stem"] as String)" } == [
                    "/lib/2024/IMG_0.jpg.xmp /lib/2024/IMG_0"
                ]
        )
        #expect(try rows("SELECT path FROM skipped_files").map { $0["path"] as String } == ["/lib/2024/notes.txt"])
        // Every task as it was (one row of tasks fewer: the missing photo's), none pending anew.
        #expect(try rows("SELECT COUNT(*) AS n FROM tasks")[0]["n"] as Int == tasksBefore - all.count)
        try expectCountsAgree(catalog)
    }

    @Test func goneAndExcludedPathsAreMissingAndSayWhy() throws {
        _ = try catalog.record(
            [media("/lib/a/1.jpg"), media("/lib/a/b/2.jpg"), media("/lib/ab/3.jpg"), media("/lib/4.jpg")],
            kinds: all,
            now: 1
        )
        #expect(try catalog.markGone(["/lib/a"], now: 2) == 2)
        #expect(try catalog.markExcluded("/lib/4.jpg", rule: "--exclude \"4.jpg\"", isFolder: false, now: 3) == 1)
        let missing = try rows(
            "SELECT path, missingAt, excludedBy FROM photos WHERE missingAt IS NOT NULL ORDER BY path"
        )
        .map { "\($0["path"] as String) \($0["missingAt"] as Double) \(($0["excludedBy"] as String?) ?? "-")" }
        #expect(missing == ["/lib/4.jpg 3.0 --exclude \"4.jpg\"", "/lib/a/1.jpg 2.0 -", "/lib/a/b/2.jpg 2.0 -"])
        #expect(try catalog.skippedFiles().map { "\($0.path) \($0.reason.rawValue)" } == ["/lib/4.jpg excluded"])
        let status = try catalog.libraryStatus()
        #expect(status.excludedPhotos == 1 && status.skipped == [.excluded: 1])
        // Back where it was, no longer excluded: found again.
        _ = try catalog.record([media("/lib/4.jpg")], kinds: all, now: 4)
        #expect(
            try rows("SELECT missingAt, excludedBy FROM photos WHERE path = '/lib/4.jpg'").allSatisfy {
                $0["missingAt"] == nil && $0["excludedBy"] == nil
            }
        )
    }

    @Test func filesNamedAsMediaThatAreNotFailByNameOnceAndRecoverWhenWritten() throws {
        let empty = ScannedFile(
            path: "/lib/IMG_1.jpg",
            size: 0,
            mtimeNs: 9,
            ctimeNs: 9,
            recognition: .failed(.empty, message: "/lib/IMG_1.jpg: the file is empty (0 bytes)")
        )
        var summary = try catalog.record([empty], kinds: all, now: 1)
        #expect(summary.failed == 1)
        let failed = try catalog.failedTasks(limit: 10)
        #expect(
            failed.count == all.count && failed.allSatisfy { $0.errorClass == .empty && $0.path == "/lib/IMG_1.jpg" }
        )
        summary = try catalog.record([empty], kinds: all, now: 2)
        #expect(summary.failed == 0 && summary.unchanged == 1, "the same file again: nothing written")
        // The sync finished: the same path is a photo now, every task pending with a fresh budget.
        summary = try catalog.record([media("/lib/IMG_1.jpg", size: 5000, mtime: 20, ctime: 20)], kinds: all, now: 3)
        #expect(summary.changed == 1)
        #expect(try rows("SELECT state FROM tasks").allSatisfy { $0["state"] == "pending" })
        try expectCountsAgree(catalog)
    }

    @Test func aRewriteThatPutsItsMtimeBackIsAChangeByItsChangeTime() throws {
        _ = try catalog.record([media("/lib/x.jpg", ctime: 5)], kinds: all, now: 1)
        try catalog.pool.write { db in try db.execute(sql: "UPDATE tasks SET state = 'done'") }
        // Same size and mtime, another ctime: the scanner found the content changed (its MD5).
        let summary = try catalog.record([media("/lib/x.jpg", ctime: 6)], kinds: all, now: 2)
        #expect(summary.changed == 1 && summary.queuedTasks == all.count)
        #expect(try rows("SELECT ctimeNs FROM photos").map { $0["ctimeNs"] as Int64 } == [6])
        // Only the ctime moved and the content is the same (the scanner says unchanged): recorded, no work.
        try catalog.pool.write { db in try db.execute(sql: "UPDATE tasks SET state = 'done'") }
        var same = media("/lib/x.jpg", ctime: 7)
        same.recognition = .unchanged
        #expect(try catalog.record([same], kinds: all, now: 3).queuedTasks == 0)
        #expect(try rows("SELECT ctimeNs FROM photos").map { $0["ctimeNs"] as Int64 } == [7])
        #expect(try rows("SELECT state FROM tasks").allSatisfy { $0["state"] == "done" })
    }

    @Test func scanRequestsAreAnsweredThroughTheCatalog() throws {
        let everything = try catalog.requestScan(paths: nil, origin: "command", now: 1)
        let some = try catalog.requestScan(paths: ["/lib/a", "/lib/b"], origin: "api", now: 2)
        #expect(try catalog.waitingScanRequests().map(\.id) == [everything, some])
        #expect(try catalog.waitingScanRequests().last?.paths == ["/lib/a", "/lib/b"])
        try catalog.startScanRequests([everything], now: 3)
        var summary = ScanSummary()
        summary.added = 2
        try catalog.finishScanRequests([everything], summary: summary, now: 4)
        #expect(try catalog.waitingScanRequests().map(\.id) == [some])
        #expect(try catalog.scanRequest(id: everything)?.summary?.added == 2)
        #expect(try catalog.scanRequest(id: everything)?.finishedAt == 4)
    }
}
