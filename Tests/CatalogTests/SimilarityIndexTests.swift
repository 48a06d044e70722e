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

/// The index over perceptual hashes (`HashIndex` in memory, the chunk indexes in SQL for
/// `photos(like:)`) against a brute-force scan of every pair, on seeded random hashes with
/// near neighbours planted at every distance up to 16: a pair or a photo the index misses,
/// or one it finds beyond the distance, fails.
@Suite struct SimilarityIndexTests {
    /// `count` hashes: a third random, the others an earlier one with 0 to 16 bits flipped
    /// (so every distance the index is asked for has pairs at and just beyond it).
    static func hashes(count: Int, seed: UInt64) -> [UInt64] {
        var random = SplitMix64(seed: seed)
        var hashes: [UInt64] = []
        for index in 0..<count {
            guard index % 3 != 0, !hashes.isEmpty else {
                hashes.append(random.next())
                continue
            }
            var hash = hashes[random.int(in: 0...hashes.count - 1)]
            for _ in 0..<random.int(in: 0...16) { hash ^= 1 << UInt64(random.int(in: 0...63)) }
            hashes.append(hash)
        }
        return hashes
    }

    struct Pair: Hashable { var a: Int, b: Int }

    static func bruteForce(_ hashes: [UInt64], within distance: Int) -> Set<Pair> {
        var pairs: Set<Pair> = []
        for a in hashes.indices {
            for b in (a + 1)..<hashes.count where (hashes[a] ^ hashes[b]).nonzeroBitCount <= distance {
                pairs.insert(Pair(a: a, b: b))
            }
        }
        return pairs
    }

    @Test(arguments: [0, 1, 3, 4, 7, 8, 10, 11, 14, 16])
    func pairsAreThoseOfTheBruteForceScan(distance: Int) {
        let hashes = Self.hashes(count: 2_500, seed: 28 + UInt64(distance))
        let pairs = HashIndex(hashes).pairs(within: distance, threads: 3)
        #expect(pairs.allSatisfy { $0 >> 32 < $0 & 0xFFFF_FFFF }, "i < j")
        let found = Set(pairs.map { Pair(a: Int($0 >> 32), b: Int($0 & 0xFFFF_FFFF)) })
        let expected = Self.bruteForce(hashes, within: distance)
        #expect(expected.count > 50, "the planted neighbours give pairs at distance \(distance)")
        #expect(
            found == expected,
            "missing \(expected.subtracting(found).count), extra \(found.subtracting(expected).count)"
        )
    }

    /// The radii by hand: Σ r_i = d − 3 (at least 0), so Σ (r_i + 1) = d + 1 > d for d ≥ 3.
    @Test func radiiAreThePigeonholesBound() {
        #expect(HashIndex.radii(for: 0) == [0, 0, 0, 0])
        #expect(HashIndex.radii(for: 3) == [0, 0, 0, 0])
        #expect(HashIndex.radii(for: 4) == [1, 0, 0, 0])
        #expect(HashIndex.radii(for: 10) == [2, 2, 2, 1])
        #expect(HashIndex.radii(for: 16) == [4, 3, 3, 3])
        #expect(HashIndex.masks(upTo: 1).count == 16)
        #expect(HashIndex.masks(upTo: 2).count == 16 + 120)
    }

    /// `photos(like:)` goes through SQLite's indexes on the generated chunk columns; it
    /// finds what a scan of every row finds, with the right distances, and leaves a
    /// missing photo out.
    @Test func lookupThroughTheCatalogsIndexesIsTheBruteForceScan() throws {
        let catalog = try Catalog(path: try freshCatalogPath("similarity-index"))
        let hashes = Self.hashes(count: 600, seed: 7)
        try Self.store(hashes, in: catalog)
        try catalog.pool.write { db in try db.execute(sql: "UPDATE photos SET missingAt = 5 WHERE id = 2") }
        var random = SplitMix64(seed: 99)
        for query in (0..<12).map({ _ in hashes[random.int(in: 0...599)] }) + [random.next()] {
            for distance in [0, 4, 10, 16] {
                let found = try catalog.photos(like: PerceptualHash(query), detail: nil, within: distance)
                let expected = hashes.indices.filter { $0 != 1 && (hashes[$0] ^ query).nonzeroBitCount <= distance }
                #expect(Set(found.map(\.path)) == Set(expected.map { "/lib/p\($0 + 1).jpg" }), "distance \(distance)")
                for photo in found {
                    let index = Int(photo.path.dropFirst("/lib/p".count).dropLast(".jpg".count))! - 1
                    #expect(photo.distance == (hashes[index] ^ query).nonzeroBitCount)
                    #expect(photo.perceptualHash == PerceptualHash(hashes[index]).hex)
                }
                #expect(found.map(\.distance) == found.map(\.distance).sorted(), "nearest first")
            }
        }
        let plan = try catalog.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT photoId, hash FROM similarity WHERE c2 IN (1, 2, 3)")
                .map { $0["detail"] as String? ?? "" }.joined(separator: " ")
        }
        #expect(plan.contains("similarity_c2"), "the chunk's index serves the lookup: \(plan)")
    }

    /// A group in order: the largest picture first, then by distance; an exact copy (same
    /// MD5) named after the first member with that content; groups largest first.
    @Test func groupsPutTheBestCopyFirstAndNameExactCopies() throws {
        let catalog = try Catalog(path: try freshCatalogPath("similarity-groups"))
        let base: UInt64 = 0xF0F0_F0F0_0F0F_0F0F
        // p1 small, p2 large (the best), p3 an exact copy of p1, p4 three bits from p2;
        // p5 and p6 a pair far from the others; p7 alone.
        let hashes = [base ^ 0b11, base, base ^ 0b11, base ^ 0b111 << 20, ~base, ~base ^ 1, 0x1234_5678_9ABC_DEF0]
        try Self.store(
            hashes,
            in: catalog,
            md5: { $0 == 3 ? "m1" : "m\($0)" },
            pixels: { $0 == 2 ? (4000, 3000) : (800, 600) }
        )
        let groups = try catalog.similarGroups(within: 4)
        #expect(
            groups.map { $0.photos.map(\.path) } == [
                ["/lib/p2.jpg", "/lib/p1.jpg", "/lib/p3.jpg", "/lib/p4.jpg"],
                ["/lib/p6.jpg", "/lib/p5.jpg"],
            ]
        )
        #expect(groups[0].photos.map(\.distance) == [0, 2, 2, 3])
        #expect(groups[0].photos.map(\.best) == [true, false, false, false])
        #expect(groups[0].photos.map(\.exactCopyOf) == [nil, nil, "/lib/p1.jpg", nil])
        // Equal pixels: the larger file, then the oldest; p5 and p6 differ by size only.
        #expect(groups[1].photos[0].best == true && groups[1].photos[0].size > groups[1].photos[1].size)
        #expect(try catalog.similarGroups(within: 1).map { $0.photos.count } == [2, 2], "p1 and p3; p5 and p6")
        #expect(
            try catalog.similarGroups(within: 4, pathGlob: "/lib/p[1-3].jpg").map { $0.photos.map(\.path) }
                == [["/lib/p2.jpg", "/lib/p1.jpg", "/lib/p3.jpg"]]
        )
    }

    /// The detail hash confirms the pairs the 64-bit hashes propose, by hand: p1, p2, p3 and
    /// p4 each 1 bit from p1 by their 64-bit hashes; p2's detail hash 60 bits from p1's
    /// (within 65: near), p3's 70 (beyond: not near), p4 has none (a hash of before it:
    /// near by its 64-bit hash alone). The stored detail is read back as written.
    @Test func theDetailHashVetoesWhatTheSixtyFourBitsPropose() throws {
        let catalog = try Catalog(path: try freshCatalogPath("similarity-detail"))
        let base: UInt64 = 0xF0F0_F0F0_0F0F_0F0F
        let hashes = [base, base ^ 1, base ^ 0b10, base ^ 1 << 40]
        func detail(_ set: Range<Int>) -> DetailHash { DetailHash(bits: (0..<256).map { set.contains($0) }) }
        let details: [Int: DetailHash] = [1: detail(0..<0), 2: detail(0..<60), 3: detail(100..<170)]
        #expect(details[1]!.distance(to: details[2]!) == 60 && details[1]!.distance(to: details[3]!) == 70)
        try Self.store(hashes, in: catalog, details: { details[$0] })
        #expect(
            try catalog.similarGroups(within: 1).map { Set($0.photos.map(\.path)) } == [
                ["/lib/p1.jpg", "/lib/p2.jpg", "/lib/p4.jpg"]
            ]
        )
        let like = try catalog.photos(like: PerceptualHash(base), detail: details[1], within: 1).map(\.path)
        #expect(Set(like) == ["/lib/p1.jpg", "/lib/p2.jpg", "/lib/p4.jpg"])
        let anyDetail = try catalog.photos(like: PerceptualHash(base), detail: nil, within: 1).map(\.path)
        #expect(anyDetail.count == 4, "a query without a detail hash is near by the 64 bits alone")
        let stored = try catalog.pool.read { db in
            try Data.fetchOne(db, sql: "SELECT detail FROM similarity WHERE photoId = 3")
        }
        #expect(stored.flatMap(DetailHash.init(bytes:)) == details[3] && stored?.count == 32)
    }

    /// Recognised texts veto the pairs of two different documents, by hand: p2, p3 and p4
    /// each 1 bit from p1 (p2 and p3 2 bits apart: not proposed). p1 reads 25 words; p2 the
    /// same page read with two words changed (23 shared of 27: 0.85 ≥ 0.75, near); p3 another
    /// page sharing 12 of p1's words (12 of 38: 0.32, not near); p4 a photo with two words on
    /// a sign (below 20 words: left to the hashes, near).
    @Test func recognisedTextsTellDocumentsApart() throws {
        let catalog = try Catalog(path: try freshCatalogPath("similarity-text"))
        let base: UInt64 = 0x0F0F_F0F0_0F0F_F0F0
        try Self.store([base, base ^ 1, base ^ 0b10, base ^ 1 << 40], in: catalog)
        func words(_ numbers: [Int]) -> String {
            numbers.map {
                "Word" + String(UnicodeScalar(UInt8(97 + $0 / 26))) + String(UnicodeScalar(UInt8(97 + $0 % 26)))
            }
            .joined(separator: " ")
        }
        let texts = [
            1: words(Array(0..<25)),
            2: words(Array(0..<23) + [25, 26]),
            3: words(Array(0..<12) + Array(30..<43)),
            4: "EXIT 12 cafe",
        ]
        try catalog.pool.write { db in
            for (id, text) in texts {
                try db.execute(
                    sql:
                        "INSERT INTO ocr (photoId, text, confidence, language, recipe) VALUES (?, ?, 90, 'eng', 'ocr/1')",
                    arguments: [id, text]
                )
            }
        }
        #expect(Catalog.textWords(of: texts[1]!).count == 25 && Catalog.textWords(of: texts[4]!) == ["exit", "cafe"])
        #expect(
            try catalog.similarGroups(within: 1).map { Set($0.photos.map(\.path)) } == [
                ["/lib/p1.jpg", "/lib/p2.jpg", "/lib/p4.jpg"]
            ]
        )
    }

    /// Photos /lib/p1.jpg … with `hashes` committed as done similarity results, their MD5s
    /// and pixel sizes as given, and files of 1,000 + 10 × their number bytes.
    static func store(
        _ hashes: [UInt64],
        in catalog: Catalog,
        md5: (Int) -> String = { "m\($0)" },
        pixels: (Int) -> (Int, Int) = { _ in (100, 100) },
        details: (Int) -> DetailHash? = { _ in nil }
    ) throws {
        let files = hashes.indices.map {
            ScannedFile(
                path: "/lib/p\($0 + 1).jpg",
                size: 1_000 + 10 * Int64($0 + 1),
                mtimeNs: 1,
                recognition: .media(.jpeg)
            )
        }
        _ = try catalog.record(files, kinds: [.similarity], now: 1)
        let jobs = try catalog.pendingJobs(tier: Kind.similarity.tier, now: 2, limit: hashes.count)
        var batch = CommitBatch()
        for job in jobs {
            batch.leases.append(
                Lease(
                    photoId: job.photoId,
                    kinds: job.kinds,
                    token: "t\(job.photoId)",
                    worker: "w",
                    leasedAt: 2,
                    expiresAt: 60,
                    pagedUpdatedAt: job.updatedAt
                )
            )
            let result = TaskResult(
                photoId: job.photoId,
                kind: .similarity,
                leaseToken: "t\(job.photoId)",
                outcome: .similarity(PerceptualHash(hashes[Int(job.photoId) - 1]), detail: details(Int(job.photoId))),
                recipe: "similarity/2 side=256"
            )
            batch.results.append(ReportedResult(result: result, worker: "w", startedAt: 2, endedAt: 3))
        }
        #expect(try catalog.commit(batch, now: 3).committed.count == hashes.count)
        try catalog.pool.write { db in
            for index in hashes.indices {
                let (width, height) = pixels(index + 1)
                try db.execute(sql: "UPDATE photos SET md5 = ? WHERE id = ?", arguments: [md5(index + 1), index + 1])
                try db.execute(
                    sql: """
                        INSERT INTO metadata (photoId, pixelWidth, pixelHeight, recipe) VALUES (?, ?, ?, 'metadata/2')
                        """,
                    arguments: [index + 1, width, height]
                )
            }
        }
    }
}
