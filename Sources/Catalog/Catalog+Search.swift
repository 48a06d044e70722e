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

/// What `photomill search` looks for; every criterion given must hold.
public struct PhotoQuery: Sendable {
    /// Words that must all appear in the OCR text (a word ending in `*` is a prefix), or
    /// all in the title, description and keywords (as parts of them, any case).
    public var words: [String] = []
    /// Only files recognised as this (`photo`, `raw`, `video`).
    public var mediaType: MediaType?
    /// A keyword the photo carries (XMP `dc:subject`), whole, any case.
    public var keyword: String?
    /// At least this rating (XMP `xmp:Rating`, −1 rejected … 5).
    public var minimumRating: Int?
    /// Part of "make model", case-insensitive.
    public var camera: String?
    /// Bounds on `dateTaken` (the camera's local time), compared on as many leading
    /// characters as given: "2019-07-14" or "2019-07-14T18:00:00". Both inclusive.
    public var from: String?
    public var to: String?
    public var near: (latitude: Double, longitude: Double, kilometres: Double)?
    /// At most this many photos, the first in the answer's order (the dashboard's pages).
    public var limit: Int?

    public init() {}
}

/// One photo found by `search`.
public struct PhotoHit: Sendable, Hashable, Codable {
    public var path: String
    public var md5: String?
    public var dateTaken: String?
    public var cameraMake: String?
    public var cameraModel: String?
    public var gpsLatitude: Double?
    public var gpsLongitude: Double?
    /// The matching words in context, marked with [ ].
    public var snippet: String?
    public var distanceKm: Double?
    public var mediaType: MediaType?
    public var title: String?
    public var keywords: [String]?
    public var rating: Int?
    /// The other half of a Live Photo: the video of a still, the still of a video.
    public var livePhoto: String?
}

/// Photos with the same content: `copies` files, under `paths`.
public struct DuplicateGroup: Sendable, Hashable, Codable {
    public var md5: String
    public var size: Int64
    public var paths: [String]
    /// Distinct files: paths that are hard links of one file (one device and inode, as
    /// lstat(2) says now) count once.
    public var copies: Int
    /// The paths that are one file under several names, when some are.
    public var hardLinks: [[String]]?
}

extension Catalog {
    /// Photos matching `query`: by OCR relevance (FTS5 rank) when words are given, else
    /// by path; with `near`, only those within the distance (great circle).
    public func search(_ query: PhotoQuery) throws(CatalogError) -> [PhotoHit] {
        try read { db in
            var conditions = ["p.missingAt IS NULL"]
            var arguments: StatementArguments = []
            let text = !query.words.isEmpty
            let fts = Self.ftsQuery(query.words)
            if let mediaType = query.mediaType {
                conditions.append("p.mediaType = ?")
                arguments += [mediaType.rawValue]
            }
            if let keyword = query.keyword {
                conditions.append("EXISTS (SELECT 1 FROM json_each(m.keywords) k WHERE lower(k.value) = lower(?))")
                arguments += [keyword]
            }
            if let rating = query.minimumRating {
                conditions.append("m.rating >= ?")
                arguments += [rating]
            }
            if let camera = query.camera {
                conditions.append(
                    "instr(lower(coalesce(m.cameraMake, '') || ' ' || coalesce(m.cameraModel, '')), lower(?)) > 0"
                )
                arguments += [camera]
            }
            if let from = query.from {
                conditions.append("substr(m.dateTaken, 1, \(from.count)) >= ?")
                arguments += [from]
            }
            if let to = query.to {
                conditions.append("substr(m.dateTaken, 1, \(to.count)) <= ?")
                arguments += [to]
            }
            if let near = query.near {
                // A bounding box narrows the rows; the exact distance is checked below.
                let degrees = near.kilometres / 111.195
                conditions.append("m.gpsLatitude BETWEEN ? AND ?")
                arguments += [near.latitude - degrees, near.latitude + degrees]
                let cosine = cos(near.latitude * .pi / 180)
                if abs(near.latitude) + degrees < 89, cosine > 0 {
                    let span = degrees / cosine
                    if near.longitude - span >= -180 && near.longitude + span <= 180 {
                        conditions.append("m.gpsLongitude BETWEEN ? AND ?")
                        arguments += [near.longitude - span, near.longitude + span]
                    }
                }
            }
            // With words: the photos whose recognised text matches (FTS5, with its rank and
            // snippet), then those whose own words (title, description, keywords) hold every
            // word and whose text does not match. Each side is one pass, not one per photo.
            var source = "photos p"
            var selected: StatementArguments = []
            if text {
                let own =
                    "lower(coalesce(title, '') || ' ' || coalesce(description, '') || ' ' || coalesce(keywords, ''))"
                let words = query.words.map { $0.hasSuffix("*") && $0.count > 1 ? String($0.dropLast()) : $0 }
                let everyWord = words.map { _ in "instr(\(own), lower(?)) > 0" }.joined(separator: " AND ")
                source = """
                    (SELECT rowid AS photoId, snippet(ocr_fts, 0, '[', ']', '…', 12) AS snippet, rank AS textRank
                     FROM ocr_fts WHERE ocr_fts MATCH ?
                     UNION ALL
                     SELECT photoId, NULL, NULL FROM metadata
                     WHERE (title IS NOT NULL OR description IS NOT NULL OR keywords IS NOT NULL) AND \(everyWord)
                       AND photoId NOT IN (SELECT rowid FROM ocr_fts WHERE ocr_fts MATCH ?)) hit
                    JOIN photos p ON p.id = hit.photoId
                    """
                selected = [fts]
                for word in words { selected += [word] }
                selected += [fts]
            }
            let sql = """
                SELECT p.path, p.md5, p.mediaType, m.dateTaken, m.cameraMake, m.cameraModel, m.gpsLatitude, m.gpsLongitude,
                    m.title, m.keywords, m.rating, \(Self.livePhotoPath) AS livePhoto,
                    \(text ? "hit.snippet" : "NULL") AS snippet, \(text ? "hit.textRank" : "NULL") AS textRank
                FROM \(source) LEFT JOIN metadata m ON m.photoId = p.id
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY textRank IS NULL, textRank, p.path
                \(query.limit != nil && query.near == nil ? "LIMIT \(query.limit!)" : "")
                """
            // Decoded by name (`keywords` from its JSON text); `distanceKm` is not a column.
            var hits = try Decoded<PhotoHit>.fetchAll(db, sql: sql, arguments: selected + arguments).map(\.value)
            if let near = query.near {
                hits = hits.compactMap { hit in
                    guard let latitude = hit.gpsLatitude, let longitude = hit.gpsLongitude else { return nil }
                    var hit = hit
                    hit.distanceKm = greatCircleKilometres(near.latitude, near.longitude, latitude, longitude)
                    return hit.distanceKm! <= near.kilometres ? hit : nil
                }
            }
            return query.limit.map { Array(hits.prefix($0)) } ?? hits
        }
    }

    /// The path of the other half of `p`'s Live Photo (the still and the video of one name
    /// stem in one folder, linked by the scan), unless Apple's content identifiers of the
    /// two say they are not one Live Photo. Needs `metadata m` of `p`.
    static let livePhotoPath = """
        (SELECT lp.path FROM photos lp LEFT JOIN metadata lm ON lm.photoId = lp.id
         WHERE lp.id = p.livePhotoId
           AND (m.contentIdentifier IS NULL OR lm.contentIdentifier IS NULL OR m.contentIdentifier = lm.contentIdentifier))
        """

    /// Each word as an FTS5 string (so no character of it is query syntax), all required.
    static func ftsQuery(_ words: [String]) -> String {
        words.map { word in
            let prefix = word.hasSuffix("*") && word.count > 1
            let bare = prefix ? String(word.dropLast()) : word
            return "\"" + bare.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (prefix ? "*" : "")
        }.joined(separator: " ")
    }

    /// Groups of two or more files (not missing) with the same MD5, largest files first.
    /// Hard links of one file are one copy: deleting one of them frees nothing, and a file
    /// with no other copy is no duplicate, however many names it has.
    public func duplicates() throws(CatalogError) -> [DuplicateGroup] {
        struct Copy: FetchableRecord, Decodable {
            var md5: String
            var size: Int64
            var path: String
        }
        let named: [String: (size: Int64, paths: [String])] = try read { db in
            var groups: [String: (size: Int64, paths: [String])] = [:]
            for copy in try Copy.fetchAll(
                db,
                sql: """
                    SELECT md5, size, path FROM photos
                    WHERE md5 IN (SELECT md5 FROM photos WHERE md5 IS NOT NULL GROUP BY md5 HAVING COUNT(*) > 1)
                        AND missingAt IS NULL
                    ORDER BY path
                    """
            ) {
                groups[copy.md5, default: (copy.size, [])].paths.append(copy.path)
            }
            return groups
        }
        let groups = named.compactMap { md5, group -> DuplicateGroup? in
            // A path lstat(2) cannot see counts as a file of its own.
            var files: [String: [String]] = [:]
            for path in group.paths {
                var info = stat()
                files[
                    PathBytes.withCString(path, { lstat($0, &info) }) == 0 ? "\(info.st_dev):\(info.st_ino)" : path,
                    default: []
                ].append(path)
            }
            guard files.count > 1 else { return nil }
            let links = files.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }
            return DuplicateGroup(
                md5: md5,
                size: group.size,
                paths: group.paths,
                copies: files.count,
                hardLinks: links.isEmpty ? nil : links
            )
        }
        return groups.sorted { ($0.size, $1.paths[0]) > ($1.size, $0.paths[0]) }
    }

    /// Recognised text of the photos after `photoId`, in photo order (empty texts left out).
    public func ocrTexts(
        afterPhoto photoId: Int64,
        limit: Int
    ) throws(CatalogError) -> [(photoId: Int64, path: String, text: String)] {
        struct Text: FetchableRecord, Decodable {
            var id: Int64
            var path: String
            var text: String
        }
        return try read { db in
            try Text.fetchAll(
                db,
                sql: """
                    SELECT p.id, p.path, o.text FROM ocr o JOIN photos p ON p.id = o.photoId
                    WHERE o.photoId > ? AND o.text != '' AND p.missingAt IS NULL ORDER BY o.photoId LIMIT ?
                    """,
                arguments: [photoId, limit]
            ).map { ($0.id, $0.path, $0.text) }
        }
    }
}

/// Haversine distance on a sphere of the Earth's mean radius (6371.0088 km).
public func greatCircleKilometres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let radians = Double.pi / 180
    let dLat = (lat2 - lat1) * radians
    let dLon = (lon2 - lon1) * radians
    let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * 6371.0088 * asin(min(1, sqrt(a)))
}
