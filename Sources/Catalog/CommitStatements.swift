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

// The rows a commit writes set-based (`Catalog.commit`), each a value whose columns are
// named with it (`RowColumn`), and the statements that write them.

/// One task of a lease.
struct LeaseRow {
    var lease: Lease
    var kind: Kind
}

/// One row of `attempts`.
struct AttemptRow {
    var photoId: Int64
    var kind: Kind
    var worker: String
    var leaseToken: String
    var startedAt: Double
    var endedAt: Double
    var outcome: AttemptOutcome
    var errorClass: ErrorClass?
    var errorMessage: String?
}

/// A photo's content hashes.
struct HashesRow {
    var photoId: Int64
    var md5: String
    var sha256: String
}

/// A photo's metadata, with its recipe.
struct MetadataRow {
    var photoId: Int64
    var recipe: String
    var metadata: PhotoMetadata
}

struct ThumbnailRow {
    var photoId: Int64
    var width: Int
    var height: Int
    var jpeg: Data
    var recipe: String
}

struct OCRRow {
    var photoId: Int64
    var text: String
    var confidence: Double
    var language: String
    var recipe: String
}

/// A photo's perceptual hash, its 64 bits as a signed INTEGER, and its detail hash.
struct SimilarityRow {
    var photoId: Int64
    var hash: PerceptualHash
    var detail: DetailHash?
    var recipe: String
}

enum CommitStatements {
    /// Leases, after `now`: only a task still pending is leased; returns (photoId, kind) of
    /// those that were.
    static let lease = RowsStatement<LeaseRow>.from(
        [
            RowColumn("photoId") { $0.lease.photoId.databaseValue },
            RowColumn("kind") { $0.kind.rawValue.databaseValue },
            RowColumn("token") { $0.lease.token.databaseValue },
            RowColumn("worker") { $0.lease.worker.databaseValue },
            RowColumn("leasedAt") { $0.lease.leasedAt.databaseValue },
            RowColumn("expiresAt") { $0.lease.expiresAt.databaseValue },
        ],
        returning: true,
        """
        UPDATE tasks SET state = 'leased', attempts = attempts + 1, leaseToken = v.token, leasedTo = v.worker,
            leasedAt = v.leasedAt, leaseExpires = v.expiresAt, updatedAt = ?
        FROM v
        WHERE tasks.photoId = v.photoId AND tasks.kind = v.kind AND tasks.state = 'pending'
        RETURNING photoId, kind
        """
    )

    /// Successes, after `now`. The exactly-once check, per row: a written lease still
    /// leased under its token, or (folded: its lease never written) a task still pending as
    /// its job was paged. Returns (photoId, kind) of the tasks it ended; every other row's
    /// result is stale.
    static let done = RowsStatement<ReportedResult>.from(
        [
            RowColumn("photoId") { $0.result.photoId.databaseValue },
            RowColumn("kind") { $0.result.kind.rawValue.databaseValue },
            RowColumn("token") { $0.result.leaseToken.databaseValue },
            RowColumn("recipe") { $0.result.recipe.databaseValue },
            RowColumn("folded") { ($0.pagedUpdatedAt == nil ? 0 : 1).databaseValue },
            RowColumn("pagedUpdatedAt") { $0.pagedUpdatedAt?.databaseValue ?? .null },
        ],
        returning: true,
        """
        UPDATE tasks SET state = 'done', attempts = attempts + v.folded, recipe = v.recipe, leaseToken = NULL,
            leasedTo = NULL, leasedAt = NULL, leaseExpires = NULL, errorClass = NULL, errorMessage = NULL, updatedAt = ?
        FROM v
        WHERE tasks.photoId = v.photoId AND tasks.kind = v.kind
            AND CASE v.folded WHEN 0 THEN tasks.state = 'leased' AND tasks.leaseToken = v.token
                ELSE tasks.state = 'pending' AND tasks.updatedAt = v.pagedUpdatedAt END
        RETURNING photoId, kind
        """
    )

    /// EXTENDs.
    static let extend = RowsStatement<(token: String, expiresAt: Double)>.from(
        [
            RowColumn("token") { $0.token.databaseValue },
            RowColumn("expiresAt") { $0.expiresAt.databaseValue },
        ],
        """
        UPDATE tasks SET leaseExpires = v.expiresAt FROM v WHERE tasks.leaseToken = v.token AND tasks.state = 'leased'
        """
    )

    static let hashes = RowsStatement<HashesRow>.from(
        [
            RowColumn("photoId") { $0.photoId.databaseValue },
            RowColumn("md5") { $0.md5.databaseValue },
            RowColumn("sha256") { $0.sha256.databaseValue },
        ],
        """
        UPDATE photos SET md5 = v.md5, sha256 = v.sha256 FROM v WHERE photos.id = v.photoId
        """
    )

    static let metadata = RowsStatement<MetadataRow>.insert(
        into: "metadata",
        replacing: true,
        [
            RowColumn("photoId") { $0.photoId.databaseValue },
            RowColumn("recipe") { $0.recipe.databaseValue },
        ] + PhotoMetadata.databaseColumns.map { column in RowColumn(column.name) { column.value($0.metadata) } }
    )

    static let thumbnails = RowsStatement<ThumbnailRow>.insert(
        into: "thumbnails",
        replacing: true,
        [
            RowColumn("photoId") { $0.photoId.databaseValue },
            RowColumn("width") { $0.width.databaseValue },
            RowColumn("height") { $0.height.databaseValue },
            RowColumn("jpeg") { $0.jpeg.databaseValue },
            RowColumn("recipe") { $0.recipe.databaseValue },
        ]
    )

    /// An upsert, not INSERT OR REPLACE: REPLACE's implicit delete fires no trigger, and the
    /// FTS index would keep the old text's words.
    static let ocr = RowsStatement<OCRRow>.insert(
        into: "ocr",
        [
            RowColumn("photoId") { $0.photoId.databaseValue },
            RowColumn("text") { $0.text.databaseValue },
            RowColumn("confidence") { $0.confidence.databaseValue },
            RowColumn("language") { $0.language.databaseValue },
            RowColumn("recipe") { $0.recipe.databaseValue },
        ],
        """
        ON CONFLICT(photoId) DO UPDATE SET text = excluded.text, confidence = excluded.confidence,
            language = excluded.language, recipe = excluded.recipe
        """
    )

    /// The chunks the index looks up are generated.
    static let similarity = RowsStatement<SimilarityRow>.insert(
        into: "similarity",
        replacing: true,
        [
            RowColumn("photoId") { $0.photoId.databaseValue },
            RowColumn("hash") { $0.hash.bitPattern.databaseValue },
            RowColumn("detail") { $0.detail?.bytes.databaseValue ?? .null },
            RowColumn("recipe") { $0.recipe.databaseValue },
        ]
    )

    static let attempts = RowsStatement<AttemptRow>.insert(
        into: "attempts",
        [
            RowColumn("photoId") { $0.photoId.databaseValue },
            RowColumn("kind") { $0.kind.rawValue.databaseValue },
            RowColumn("worker") { $0.worker.databaseValue },
            RowColumn("leaseToken") { $0.leaseToken.databaseValue },
            RowColumn("startedAt") { $0.startedAt.databaseValue },
            RowColumn("endedAt") { $0.endedAt.databaseValue },
            RowColumn("outcome") { $0.outcome.rawValue.databaseValue },
            RowColumn("errorClass") { $0.errorClass?.rawValue.databaseValue ?? .null },
            RowColumn("errorMessage") { $0.errorMessage?.databaseValue ?? .null },
        ]
    )
}

/// The payloads of committed results, by kind, written a statement per kind.
struct Payloads {
    /// The tables of the results a file loses when it changes (its hashes, in `photos`, too).
    static var tables: [String] {
        [
            CommitStatements.metadata.table, CommitStatements.thumbnails.table, CommitStatements.ocr.table,
            CommitStatements.similarity.table,
        ].compactMap { $0 }
    }

    var hashes: [HashesRow] = []
    var metadata: [MetadataRow] = []
    var thumbnails: [ThumbnailRow] = []
    var ocr: [OCRRow] = []
    var similarity: [SimilarityRow] = []

    mutating func add(_ result: TaskResult) {
        switch result.outcome {
        case .hash(let md5, let sha256, _):
            hashes.append(HashesRow(photoId: result.photoId, md5: md5, sha256: sha256))
        case .metadata(let values):
            metadata.append(MetadataRow(photoId: result.photoId, recipe: result.recipe, metadata: values))
        case .thumbnail(let width, let height, let jpeg):
            thumbnails.append(
                ThumbnailRow(photoId: result.photoId, width: width, height: height, jpeg: jpeg, recipe: result.recipe)
            )
        case .ocr(let text, let confidence, let language, _):
            ocr.append(
                OCRRow(
                    photoId: result.photoId,
                    text: text,
                    confidence: confidence,
                    language: language,
                    recipe: result.recipe
                )
            )
        case .similarity(let hash, let detail):
            similarity.append(SimilarityRow(photoId: result.photoId, hash: hash, detail: detail, recipe: result.recipe))
        case .failure:
            break
        }
    }

    func write(_ db: Database) throws {
        try CommitStatements.hashes.run(db, hashes)
        try CommitStatements.metadata.run(db, metadata)
        try CommitStatements.thumbnails.run(db, thumbnails)
        try CommitStatements.ocr.run(db, ocr)
        try CommitStatements.similarity.run(db, similarity)
    }
}
