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

/// Everything the catalog knows of one photo: the dashboard's panel (docs/operations.md,
/// "The Library page").
public struct PhotoDetails: Sendable, Hashable, Codable {
    public var path: String
    public var size: Int64
    public var format: String?
    public var md5: String?
    public var sha256: String?
    /// Its metadata, the XMP sidecar's fields (title, description, keywords, rating,
    /// label) merged in, as the exports have it.
    public var metadata: PhotoMetadata?
    public var sidecarPath: String?
    /// The recognised text, when there is some.
    public var ocrText: String?
    public var ocrConfidence: Double?
    public var perceptualHash: String?
    public var thumbnailWidth: Int?
    public var thumbnailHeight: Int?
    /// The other half of a Live Photo.
    public var livePhoto: String?
    /// When a scan found it gone (seconds since 1970), if it did.
    public var missingAt: Double?
}

extension Catalog {
    /// The photo at `path`, or nil when the catalog has none there.
    public func photoDetails(path: String) throws(CatalogError) -> PhotoDetails? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT p.path, p.size, p.format, p.md5, p.sha256, p.mediaType, p.sidecarPath, p.missingAt, m.*,
                            m.photoId AS hasMetadata, o.text AS ocrText, o.confidence AS ocrConfidence, s.hash AS perceptualHash,
                            th.width AS thumbnailWidth, th.height AS thumbnailHeight, \(Self.livePhotoPath) AS livePhoto
                        FROM photos p
                        LEFT JOIN metadata m ON m.photoId = p.id
                        LEFT JOIN ocr o ON o.photoId = p.id
                        LEFT JOIN similarity s ON s.photoId = p.id
                        LEFT JOIN thumbnails th ON th.photoId = p.id
                        WHERE p.path = ?
                        """,
                    arguments: [path]
                )
            else { return nil }
            let text: String? = row["ocrText"]
            return PhotoDetails(
                path: row["path"],
                size: row["size"],
                format: row["format"],
                md5: row["md5"],
                sha256: row["sha256"],
                metadata: row["hasMetadata"] == nil ? nil : PhotoMetadata(row: row),
                sidecarPath: row["sidecarPath"],
                ocrText: text?.isEmpty == false ? text : nil,
                ocrConfidence: row["ocrConfidence"],
                perceptualHash: (row["perceptualHash"] as Int64?).map { PerceptualHash(bitPattern: $0).hex },
                thumbnailWidth: row["thumbnailWidth"],
                thumbnailHeight: row["thumbnailHeight"],
                livePhoto: row["livePhoto"],
                missingAt: row["missingAt"]
            )
        }
    }
}
