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

/// The set-based commit binds each value under its column's name: a column the table does
/// not have fails the statement, and a value bound to another column than its own comes
/// back wrong here, instead of shifting every later value in silence.
@Suite struct CommitStatementsTests {
    /// Every field of the metadata record with a value no other field has, written by the
    /// commit's statement and read back by column name (`PhotoMetadata(row:)`).
    @Test func metadataColumnsAreTheTablesAndEachValueLandsInItsOwn() throws {
        let catalog = try Catalog(path: try freshCatalogPath("statements"))
        var metadata = PhotoMetadata()
        metadata.dateTaken = "2021-03-04T05:06:07"
        metadata.fileModificationDate = "2022-01-02T03:04:05"
        metadata.pixelWidth = 4032
        metadata.pixelHeight = 3024
        metadata.cameraMake = "Make"
        metadata.cameraModel = "Model"
        metadata.orientation = 6
        metadata.gpsLatitude = 48.5
        metadata.gpsLongitude = -2.25
        metadata.aperture = 1.8
        metadata.shutterSpeed = 0.004
        metadata.iso = 200
        metadata.focalLength = 4.25
        metadata.lensModel = "Lens"
        metadata.duration = 12.5
        metadata.videoCodec = "hevc"
        metadata.frameRate = 29.97
        metadata.title = "Title"
        metadata.description = "Description"
        metadata.keywords = ["a", "b"]
        metadata.rating = 4
        metadata.label = "Red"
        metadata.contentIdentifier = "ID-1"
        try catalog.pool.write { db in
            try db.execute(
                sql:
                    "INSERT INTO photos (id, path, size, mtimeNs, scannedAt, changedAt) VALUES (1, '/p.jpg', 1, 1, 1, 1)"
            )
            let tableColumns = try Row.fetchAll(db, sql: "PRAGMA table_info(metadata)").map { $0["name"] as String }
            #expect(Set(tableColumns) == Set(CommitStatements.metadata.columns.map(\.name)))
            try CommitStatements.metadata.run(db, [MetadataRow(photoId: 1, recipe: "metadata/2", metadata: metadata)])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM metadata WHERE photoId = 1"))
            #expect(PhotoMetadata(row: row) == metadata)
            #expect(row["recipe"] == "metadata/2")
        }
    }

    /// Each statement's columns exist where its SQL reads them: one row through each.
    @Test func everyStatementRunsOverOneRow() throws {
        let catalog = try Catalog(path: try freshCatalogPath("statements"))
        let lease = Lease(photoId: 1, kinds: [.hash], token: "t", worker: "w", leasedAt: 2, expiresAt: 3)
        try catalog.pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO photos (id, path, size, mtimeNs, scannedAt, changedAt) VALUES (1, '/p.jpg', 1, 1, 1, 1);
                    INSERT INTO tasks (photoId, kind, updatedAt) VALUES (1, 'hash', 1);
                    """
            )
            var leased: [String] = []
            try CommitStatements.lease.run(db, [LeaseRow(lease: lease, kind: .hash)], after: [5.databaseValue]) {
                leased.append("\($0) \($1)")
            }
            #expect(leased == ["1 hash"])
            try CommitStatements.extend.run(db, [(token: "t", expiresAt: 9)])
            let task = try #require(try Row.fetchOne(db, sql: "SELECT * FROM tasks"))
            #expect(task["leaseToken"] as String? == "t")
            #expect(task["leasedTo"] as String? == "w")
            #expect(task["leasedAt"] as Double? == 2.0)
            #expect(task["leaseExpires"] as Double? == 9.0)
            #expect(task["updatedAt"] as Double? == 5.0)
            let result = ReportedResult(
                result: TaskResult(
                    photoId: 1,
                    kind: .hash,
                    leaseToken: "t",
                    outcome: .hash(md5: "m", sha256: "s"),
                    recipe: "hash/1"
                ),
                worker: "w",
                startedAt: 2,
                endedAt: 3
            )
            var done: [String] = []
            try CommitStatements.done.run(db, [result], after: [6.databaseValue]) { done.append("\($0) \($1)") }
            #expect(done == ["1 hash"])
            try CommitStatements.hashes.run(db, [HashesRow(photoId: 1, md5: "m", sha256: "s")])
            try CommitStatements.thumbnails.run(
                db,
                [ThumbnailRow(photoId: 1, width: 2, height: 3, jpeg: Data([1]), recipe: "thumbnail/2")]
            )
            try CommitStatements.ocr.run(
                db,
                [OCRRow(photoId: 1, text: "word", confidence: 90, language: "eng", recipe: "ocr/2")]
            )
            try CommitStatements.attempts.run(
                db,
                [
                    AttemptRow(
                        photoId: 1,
                        kind: .hash,
                        worker: "w",
                        leaseToken: "t",
                        startedAt: 2,
                        endedAt: 3,
                        outcome: .done,
                        errorClass: .corrupt,
                        errorMessage: "m"
                    )
                ]
            )
            let photo = try #require(try Row.fetchOne(db, sql: "SELECT md5, sha256 FROM photos"))
            #expect(photo["md5"] as String? == "m")
            #expect(photo["sha256"] as String? == "s")
            #expect(
                try Row.fetchOne(db, sql: "SELECT width, height, recipe FROM thumbnails") == [
                    "width": 2, "height": 3, "recipe": "thumbnail/2",
                ]
            )
            #expect(
                try Row.fetchOne(db, sql: "SELECT text, confidence, language FROM ocr") == [
                    "text": "word", "confidence": 90.0, "language": "eng",
                ]
            )
            #expect(
                try Row.fetchOne(
                    db,
                    sql:
                        "SELECT worker, leaseToken, startedAt, endedAt, outcome, errorClass, errorMessage FROM attempts"
                )
                    == [
                        "worker": "w", "leaseToken": "t", "startedAt": 2.0, "endedAt": 3.0, "outcome": "done",
                        "errorClass": "corrupt",
                        "errorMessage": "m",
                    ]
            )
        }
    }
}
