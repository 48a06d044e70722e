internal import GRDB
import PhotomillCore

/// What names a photo's export files, without the data that fills them.
public struct ExportKey: Sendable, Hashable {
    public var photoId: Int64
    public var md5: String
    public var hasThumbnail: Bool
}

extension Catalog {
    /// Keys of photos with a content hash, in photo order after `photoId`: cheap enough to
    /// check a whole catalog's export folder against.
    public func exportKeys(afterPhoto photoId: Int64, limit: Int) throws(CatalogError) -> [ExportKey] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT p.id, p.md5, EXISTS (SELECT 1 FROM thumbnails th WHERE th.photoId = p.id) AS hasThumbnail
                FROM photos p WHERE p.md5 IS NOT NULL AND p.missingAt IS NULL AND p.id > ? ORDER BY p.id LIMIT ?
                """, arguments: [photoId, limit]).map { ExportKey(photoId: $0["id"], md5: $0["md5"], hasThumbnail: $0["hasThumbnail"]) }
        }
    }
}
