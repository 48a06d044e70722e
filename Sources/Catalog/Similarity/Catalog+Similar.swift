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

/// A photo found by `similar` or `search --like`.
public struct SimilarPhoto: Sendable, Hashable, Codable {
    public var path: String
    public var size: Int64
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// When it was taken (the camera's local time), else the file's modification date.
    public var date: String?
    public var md5: String?
    public var mediaType: MediaType?
    /// 16 hex digits.
    public var perceptualHash: String
    /// Bits from its group's best copy (`similar`), or from the file asked about
    /// (`search --like`).
    public var distance: Int
    /// In a group: the copy to keep (largest pixel size, then largest file, then oldest).
    public var best: Bool?
    /// In a group: the member before it with the same content (MD5), of which it is an
    /// exact copy.
    public var exactCopyOf: String?

    var pixels: Int { (pixelWidth ?? 0) * (pixelHeight ?? 0) }
}

/// Near-duplicates: photos linked by steps of near pairs (each near another member: its
/// 64-bit hash within the distance asked, its detail hash within `detailDistance`), best
/// copy first.
public struct SimilarGroup: Sendable, Hashable, Codable {
    public var photos: [SimilarPhoto]
}

extension Catalog {
    /// The distance of the 64-bit hashes `similar` and `search --like` use unless told
    /// otherwise: chosen, with `detailDistance`, on one half of the quality benchmark's
    /// sources and reported on the other (docs/processing.md, "Similar photos";
    /// scripts/similarity-benchmark.py).
    public static let defaultSimilarDistance = 10
    /// The most bits two detail hashes of a near pair may differ in, whatever the distance
    /// asked of the 64-bit hashes: one picture re-encoded, resized, turned or brightened
    /// measured 0–20 bits, cropped by 5 % up to 65; two pages of text in one layout, a few
    /// bits apart in the 64-bit hash, mostly 70 and more (some 60: docs/processing.md). A pair of which one has no detail hash
    /// (hashed before it) is near by its 64-bit hash alone.
    public static let detailDistance = 65
    /// The largest distance asked of the index: beyond it unrelated photos meet (two
    /// random 64-bit hashes are 32 ± 4 bits apart), and the chunks' radii make the search
    /// slow (docs/catalog.md, "similarity").
    public static let similarDistances = 0...16

    /// Groups of near-duplicate photos (not missing; `pathGlob` over their paths when
    /// given), the largest first: every photo whose hash is within `distance` bits of
    /// another's joins its group. Reads every hash once and pairs them through `HashIndex`,
    /// never all pairs.
    public func similarGroups(within distance: Int, pathGlob: String? = nil) throws(CatalogError) -> [SimilarGroup] {
        precondition(Self.similarDistances.contains(distance), "distance within \(Self.similarDistances)")
        let (ids, hashes, details) = try read { db in
            var ids: [Int64] = []
            var hashes: [UInt64] = []
            var details: [DetailHash?] = []
            let sql =
                pathGlob == nil
                ? """
                SELECT photoId, hash, detail FROM similarity
                WHERE photoId NOT IN (SELECT id FROM photos WHERE missingAt IS NOT NULL)
                """
                : """
                SELECT s.photoId, s.hash, s.detail FROM similarity s JOIN photos p ON p.id = s.photoId
                WHERE p.missingAt IS NULL AND p.path GLOB ?
                """
            let rows = try Row.fetchCursor(db, sql: sql, arguments: pathGlob.map { [$0] } ?? [])
            while let row = try rows.next() {
                ids.append(row[0])
                hashes.append(UInt64(bitPattern: row[1]))
                details.append((row[2] as Data?).flatMap(DetailHash.init(bytes:)))
            }
            return (ids, hashes, details)
        }
        let pairs = HashIndex(hashes).pairs(within: distance).map { (Int($0 >> 32), Int($0 & 0xFFFF_FFFF)) }
            .filter { Self.detailsAgree(details[$0.0], details[$0.1]) }
        let words = try textWords(Set(pairs.flatMap { [ids[$0.0], ids[$0.1]] }))
        var sets = DisjointSets(count: hashes.count)
        for (a, b) in pairs where Self.textsAgree(words[ids[a]], words[ids[b]]) { sets.union(a, b) }
        let grouped = sets.groups()
        let photos = try similarPhotos(grouped.flatMap { $0.map { ids[$0] } })
        return grouped.compactMap { items in
            let members = items.compactMap { item in photos[ids[item]].map { (hash: hashes[item], photo: $0) } }
            return members.count > 1 ? Self.group(members) : nil
        }
        .sorted { ($0.photos.count, $1.photos[0].path) > ($1.photos.count, $0.photos[0].path) }
    }

    /// Whether a pair the 64-bit hashes propose is near by its detail hashes too (or one
    /// has none).
    static func detailsAgree(_ a: DetailHash?, _ b: DetailHash?) -> Bool {
        guard let a, let b else { return true }
        return a.distance(to: b) <= detailDistance
    }

    /// Whether a pair the hashes propose is near by its recognised texts too: when both are
    /// documents — each with at least `textMinimumWords` words — their sets of words must
    /// share `textAgreement` of their union (Jaccard). Pages of one layout are one picture to
    /// a 32 × 32 hash, and their texts tell them apart (docs/processing.md, "similarity");
    /// any other pair (a photo without text, or with a few words read off a sign) is left to
    /// the hashes.
    static func textsAgree(_ a: Set<Substring>?, _ b: Set<Substring>?) -> Bool {
        guard let a, let b, a.count >= textMinimumWords, b.count >= textMinimumWords else { return true }
        return Double(a.intersection(b).count) >= textAgreement * Double(a.union(b).count)
    }

    /// Fewer distinct words than this (`textWords(of:)`) and a text is not a document's.
    public static let textMinimumWords = 20
    /// The share of their words two documents' texts must have in common to be one picture.
    public static let textAgreement = 0.75

    /// The distinct words (`textWords(of:)`) of the recognised texts of `ids`, by id; a photo
    /// without text has none.
    func textWords(_ ids: Set<Int64>) throws(CatalogError) -> [Int64: Set<Substring>] {
        guard !ids.isEmpty else { return [:] }
        return try read { db in
            var words: [Int64: Set<Substring>] = [:]
            for row in try Row.fetchAll(
                db,
                sql: "SELECT photoId, text FROM ocr WHERE photoId IN (SELECT value FROM json_each(?))",
                arguments: [Self.jsonArray(ids)]
            ) {
                words[row[0]] = Self.textWords(of: row[1])
            }
            return words
        }
    }

    /// A text's words for comparing two documents: runs of three or more letters, lower-cased
    /// (shorter ones and digits are where OCR of one page differs most between copies).
    static func textWords(of text: String) -> Set<Substring> {
        Set(
            text.lowercased().split { !$0.isLetter }.filter { $0.count >= 3 }
        )
    }

    /// Photos (not missing) whose hash is within `distance` bits of `hash` and whose detail
    /// hash agrees with `detail` (`detailsAgree`), nearest first: the candidates come from
    /// the catalog's chunk indexes (`similarity_c0` … `c3`), each looked up at the chunk
    /// values within its radius of the query's (`HashIndex.radii`).
    public func photos(
        like hash: PerceptualHash,
        detail: DetailHash?,
        within distance: Int
    ) throws(CatalogError) -> [SimilarPhoto] {
        precondition(Self.similarDistances.contains(distance), "distance within \(Self.similarDistances)")
        let near: [Int64: Int] = try read { db in
            let parts = HashIndex.radii(for: distance).enumerated().map { chunk, radius in
                let own = Int(hash.chunk(chunk))
                let values = ([own] + HashIndex.masks(upTo: radius).map { own ^ $0 }).map(String.init).joined(
                    separator: ","
                )
                return "SELECT photoId, hash FROM similarity WHERE c\(chunk) IN (\(values))"
            }
            // From the chunks' indexes alone (each holds the hash: `v14-similarity-covering`),
            // as one UNION ALL read by a cursor: a photo found on two chunks comes twice and is
            // kept once here, cheaper than SQLite's sorting the rows to drop repeats.
            var near: [Int64: Int] = [:]
            let rows = try Row.fetchCursor(db, sql: parts.joined(separator: " UNION ALL "))
            while let row = try rows.next() {
                let found = hash.distance(to: PerceptualHash(bitPattern: row[1]))
                if found <= distance { near[row[0]] = found }
            }
            // The detail hashes of the near ones only.
            guard let detail, !near.isEmpty else { return near }
            for row in try Row.fetchAll(
                db,
                sql: "SELECT photoId, detail FROM similarity WHERE photoId IN (SELECT value FROM json_each(?))",
                arguments: [Self.jsonArray(near.keys)]
            ) where !Self.detailsAgree(detail, (row[1] as Data?).flatMap(DetailHash.init(bytes:))) {
                near[row[0]] = nil
            }
            return near
        }
        return try similarPhotos(Array(near.keys)).values.map { photo in
            var photo = photo
            photo.distance = near[photo.id] ?? 0
            return photo.photo
        }.sorted { ($0.distance, $0.path) < ($1.distance, $1.path) }
    }

    /// The recipe of the newest perceptual hash: what `search --like` makes its own hash by.
    public func similarityRecipe() throws(CatalogError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT recipe FROM similarity ORDER BY rowid DESC LIMIT 1") }
    }

    /// The facts shown of each photo of `ids` that is not missing, by id.
    private func similarPhotos(_ ids: [Int64]) throws(CatalogError) -> [Int64: SimilarPhotoRow] {
        guard !ids.isEmpty else { return [:] }
        return try read { db in
            var photos: [Int64: SimilarPhotoRow] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT p.id, p.path, p.size, p.md5, p.mediaType, s.hash, m.pixelWidth, m.pixelHeight,
                        COALESCE(m.dateTaken, m.fileModificationDate) AS date
                    FROM photos p JOIN similarity s ON s.photoId = p.id LEFT JOIN metadata m ON m.photoId = p.id
                    WHERE p.id IN (SELECT value FROM json_each(?)) AND p.missingAt IS NULL
                    """,
                arguments: [Self.jsonArray(ids)]
            ) {
                let hash = PerceptualHash(bitPattern: row["hash"])
                photos[row["id"]] = SimilarPhotoRow(
                    id: row["id"],
                    photo: SimilarPhoto(
                        path: row["path"],
                        size: row["size"],
                        pixelWidth: row["pixelWidth"],
                        pixelHeight: row["pixelHeight"],
                        date: row["date"],
                        md5: row["md5"],
                        mediaType: (row["mediaType"] as String?).flatMap(MediaType.init(rawValue:)),
                        perceptualHash: hash.hex,
                        distance: 0
                    )
                )
            }
            return photos
        }
    }

    /// A group in order: the best copy first (largest pixel size, then largest file, then
    /// oldest), then by distance from it; exact copies (same MD5) named.
    static func group(_ members: [(hash: UInt64, photo: SimilarPhotoRow)]) -> SimilarGroup {
        func better(_ a: SimilarPhoto, _ b: SimilarPhoto) -> Bool {
            if a.pixels != b.pixels { return a.pixels > b.pixels }
            if a.size != b.size { return a.size > b.size }
            if a.date != b.date { return (a.date ?? "\u{10FFFF}") < (b.date ?? "\u{10FFFF}") }
            return a.path < b.path
        }
        let best = members.min { better($0.photo.photo, $1.photo.photo) }!
        var photos = members.map { member in
            var photo = member.photo.photo
            photo.distance = (member.hash ^ best.hash).nonzeroBitCount
            photo.best = member.photo.id == best.photo.id
            return photo
        }
        photos.sort { a, b in
            if a.best != b.best { return a.best == true }
            return (a.distance, a.path) < (b.distance, b.path)
        }
        var firstOf: [String: String] = [:]
        for index in photos.indices {
            guard let md5 = photos[index].md5 else { continue }
            if let first = firstOf[md5] { photos[index].exactCopyOf = first } else { firstOf[md5] = photos[index].path }
        }
        return SimilarGroup(photos: photos)
    }
}

/// A `SimilarPhoto` with the catalog's id of its photo.
struct SimilarPhotoRow {
    var id: Int64
    var photo: SimilarPhoto
    var distance: Int {
        get { photo.distance }
        set { photo.distance = newValue }
    }
}

/// Union-find with path halving and union by size: which items the pairs link.
struct DisjointSets {
    private var parent: [Int32]
    private var size: [Int32]

    init(count: Int) {
        parent = (0..<count).map { Int32($0) }
        size = [Int32](repeating: 1, count: count)
    }

    mutating func find(_ item: Int) -> Int {
        var item = item
        while Int(parent[item]) != item {
            parent[item] = parent[Int(parent[item])]
            item = Int(parent[item])
        }
        return item
    }

    mutating func union(_ a: Int, _ b: Int) {
        var a = find(a)
        var b = find(b)
        guard a != b else { return }
        if size[a] < size[b] { swap(&a, &b) }
        parent[b] = Int32(a)
        size[a] += size[b]
    }

    /// The sets of more than one item, each in item order.
    mutating func groups() -> [[Int]] {
        var members: [Int: [Int]] = [:]
        for item in parent.indices where size[find(item)] > 1 { members[find(item), default: []].append(item) }
        return Array(members.values)
    }
}
