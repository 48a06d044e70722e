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

/// Everything the exports need of one photo.
public struct ExportRecord: Sendable, Hashable {
    public var photoId: Int64
    public var path: String
    public var size: Int64
    public var md5: String
    public var sha256: String?
    public var metadata: PhotoMetadata?
    /// Nil when there is no text (none found, or under the confidence floor).
    public var ocrText: String?
    public var thumbnail: Data?
    /// The path of the other half of a Live Photo.
    public var livePhoto: String?
    public var perceptualHash: PerceptualHash?
}

extension Catalog {
    /// Records of photos with a content hash (and not missing), in photo order after `photoId` (paging keeps
    /// memory bounded however large the catalog), or exactly `ids` when given.
    public func exportRecords(
        afterPhoto photoId: Int64 = 0,
        limit: Int = 500,
        ids: [Int64]? = nil
    ) throws(CatalogError) -> [ExportRecord] {
        try read { db in
            let filter = ids.map { "p.id IN (\($0.map(String.init).joined(separator: ",")))" } ?? "p.id > \(photoId)"
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT p.id, p.path, p.size, p.md5, p.sha256, p.mediaType, m.*, m.photoId AS hasMetadata,
                        NULLIF(o.text, '') AS ocrText, th.jpeg AS thumbnail, \(Self.livePhotoPath) AS livePhoto,
                        s.hash AS perceptualHash
                    FROM photos p
                    LEFT JOIN metadata m ON m.photoId = p.id
                    LEFT JOIN ocr o ON o.photoId = p.id
                    LEFT JOIN thumbnails th ON th.photoId = p.id
                    LEFT JOIN similarity s ON s.photoId = p.id
                    WHERE p.md5 IS NOT NULL AND p.missingAt IS NULL AND \(filter)
                    ORDER BY p.id LIMIT ?
                    """,
                arguments: [ids?.count ?? limit]
            )
            return try rows.map { row in
                ExportRecord(
                    photoId: row["id"],
                    path: row["path"],
                    size: row["size"],
                    md5: row["md5"],
                    sha256: row["sha256"],
                    metadata: row["hasMetadata"] == nil ? nil : PhotoMetadata(row: row),
                    ocrText: row["ocrText"],
                    thumbnail: row["thumbnail"],
                    livePhoto: row["livePhoto"],
                    perceptualHash: (row["perceptualHash"] as Int64?).map(PerceptualHash.init(bitPattern:))
                )
            }
        }
    }
}
