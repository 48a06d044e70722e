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

internal import GRDB
import PhotomillCore

/// What names a photo's export files, without the data that fills them.
public struct ExportKey: Sendable, Hashable {
    public var photoId: Int64
    public var path: String
    public var md5: String
    public var hasThumbnail: Bool
}

extension Catalog {
    /// Keys of photos with a content hash, in photo order after `photoId`: cheap enough to
    /// check a whole catalog's export folder against.
    public func exportKeys(afterPhoto photoId: Int64, limit: Int) throws(CatalogError) -> [ExportKey] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT p.id, p.path, p.md5, EXISTS (SELECT 1 FROM thumbnails th WHERE th.photoId = p.id) AS hasThumbnail
                    FROM photos p WHERE p.md5 IS NOT NULL AND p.missingAt IS NULL AND p.id > ? ORDER BY p.id LIMIT ?
                    """,
                arguments: [photoId, limit]
            ).map { ExportKey(photoId: $0["id"], path: $0["path"], md5: $0["md5"], hasThumbnail: $0["hasThumbnail"]) }
        }
    }
}

/// Which photo speaks for a content in the exports (docs/exports.md): the first one (lowest
/// id, not missing) for `metadata/{md5}.plist`, the first with a thumbnail for
/// `thumbs/{md5}.jpg`. Always the same photo while the catalog stays the same, so copies of
/// one content never take turns at rewriting its files.
public struct ContentOwners: Sendable, Hashable {
    public var plist: Int64
    public var thumbnail: Int64?
}

extension Catalog {
    public func contentOwners(md5s: Set<String>) throws(CatalogError) -> [String: ContentOwners] {
        guard !md5s.isEmpty else { return [:] }
        return try read { db in
            var owners: [String: ContentOwners] = [:]
            let list = Array(md5s)
            for start in stride(from: 0, to: list.count, by: 500) {
                let chunk = Array(list[start..<min(start + 500, list.count)])
                for row in try Row.fetchAll(
                    db,
                    sql: """
                        SELECT p.md5, MIN(p.id) AS first,
                            MIN(CASE WHEN EXISTS (SELECT 1 FROM thumbnails th WHERE th.photoId = p.id) THEN p.id END) AS firstThumbnail
                        FROM photos p WHERE p.missingAt IS NULL AND p.md5 IN (\(chunk.map { _ in "?" }.joined(separator: ",")))
                        GROUP BY p.md5
                        """,
                    arguments: StatementArguments(chunk)
                ) {
                    owners[row["md5"]] = ContentOwners(plist: row["first"], thumbnail: row["firstThumbnail"])
                }
            }
            return owners
        }
    }
}
