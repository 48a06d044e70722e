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

import Catalog
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PhotomillCore
import Testing

@testable import Dashboard

/// The routes of the Library and Duplicates pages in process, over a catalog whose
/// thumbnails, metadata and hashes were committed as a worker's results are: thumbnails
/// with their ETag and 304, searches and their refusals, one photo's details, groups.
@Suite struct PicturesTests {
    /// /lib/p0.jpg and /lib/p1.jpg: thumbnails of 3 bytes each, camera "Make N", hashes 4
    /// bits apart; /lib/p2.jpg: a far hash and no thumbnail.
    static func fixture(token: String? = nil) throws -> Fixture {
        let fixture = try Fixture(token: token, hashes: 0)
        let files = (0..<3).map {
            ScannedFile(path: "/lib/p\($0).jpg", size: 100 + Int64($0), mtimeNs: 1, recognition: .media(.jpeg))
        }
        _ = try fixture.catalog.record(files, kinds: [.metadata, .thumbnail, .similarity], now: 1)
        let jobs = try Kind.tiers.flatMap { try fixture.catalog.pendingJobs(tier: $0, now: 2, limit: 10) }
        var batch = CommitBatch()
        for job in jobs {
            let token = "t\(job.photoId)-\(job.kinds[0].rawValue)"
            batch.leases.append(
                Lease(
                    photoId: job.photoId,
                    kinds: job.kinds,
                    token: token,
                    worker: "w",
                    leasedAt: 2,
                    expiresAt: 60,
                    pagedUpdatedAt: job.updatedAt
                )
            )
            // /lib/pN.jpg is number N + 1 (the fixture's failed photo took the first id).
            let number = try #require(Int(job.path.dropFirst("/lib/p".count).prefix(1))) + 1
            for kind in job.kinds where !(kind == .thumbnail && number == 3) {
                let outcome: TaskOutcome =
                    switch kind {
                    case .metadata:
                        .metadata(
                            {
                                var values = PhotoMetadata()
                                values.cameraMake = "Make \(number)"
                                return values
                            }()
                        )
                    case .thumbnail: .thumbnail(width: 2, height: 1, jpeg: Data([0xFF, 0xD8, UInt8(number)]))
                    default: .similarity(PerceptualHash(number == 3 ? ~0 : 0xF0F0 << UInt64(number == 2 ? 1 : 0)))
                    }
                let result = TaskResult(
                    photoId: job.photoId,
                    kind: kind,
                    leaseToken: token,
                    outcome: outcome,
                    recipe: "\(kind.rawValue)/1"
                )
                batch.results.append(ReportedResult(result: result, worker: "w", startedAt: 2, endedAt: 3))
            }
        }
        _ = try fixture.catalog.commit(batch, now: 3)
        return fixture
    }

    @Test func thumbnailsComeWithAnETagAndAnswer304ToIt() async throws {
        let fixture = try Self.fixture()
        try await fixture.test { client in
            let first = try await client.execute(uri: "/api/v1/thumbnail?path=/lib/p1.jpg", method: .get)
            #expect(first.status == .ok && first.headers[.contentType] == "image/jpeg")
            #expect(Array(first.body.readableBytesView) == [0xFF, 0xD8, 2])
            let tag = try #require(first.headers[.eTag])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && first.headers[.cacheControl] == "private, no-cache")
            for held in [tag, "W/" + tag, "\"other\", " + tag] {
                let again = try await client.execute(
                    uri: "/api/v1/thumbnail?path=/lib/p1.jpg",
                    method: .get,
                    headers: [.ifNoneMatch: held]
                )
                #expect(
                    again.status == .notModified && again.body.readableBytes == 0 && again.headers[.eTag] == tag,
                    "\(held)"
                )
            }
            let stale = try await client.execute(
                uri: "/api/v1/thumbnail?path=/lib/p1.jpg",
                method: .get,
                headers: [.ifNoneMatch: "\"other\""]
            )
            #expect(stale.status == .ok && stale.body.readableBytes == 3)
            let other = try await client.execute(uri: "/api/v1/thumbnail?path=/lib/p0.jpg", method: .get)
            #expect(
                other.headers[.eTag] != tag && Array(other.body.readableBytesView) == [0xFF, 0xD8, 1],
                "each photo its own"
            )
            #expect(
                try await client.execute(uri: "/api/v1/thumbnail?path=/lib/p2.jpg", method: .get).status == .notFound
            )
            #expect(try await client.execute(uri: "/api/v1/thumbnail", method: .get).status == .badRequest)
        }
    }

    @Test func searchDetailsAndGroupsAnswerAndBadCriteriaAreNamed() async throws {
        let fixture = try Self.fixture()
        try await fixture.test { client in
            let found = try await client.execute(uri: "/api/v1/search?camera=make%202", method: .get)
            #expect((found.json["photos"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == ["/lib/p1.jpg"])
            let all = try await client.execute(uri: "/api/v1/search?limit=2", method: .get)
            #expect((all.json["photos"] as? [[String: Any]])?.count == 2, "no criterion: every photo, up to the limit")
            for (query, named) in [
                ("from=2019-13-01", "from"), ("near=1,2", "near"), ("type=slide", "type"), ("rating=9", "rating"),
                ("limit=0", "limit"), ("from=2020-01-02&to=2020-01-01", "after"),
            ] {
                let refused = try await client.execute(uri: "/api/v1/search?\(query)", method: .get)
                #expect(
                    refused.status == .badRequest && (refused.json["error"] as? String)?.contains(named) == true,
                    "\(query)"
                )
            }
            let photo = try await client.execute(uri: "/api/v1/photo?path=/lib/p1.jpg", method: .get)
            #expect((photo.json["metadata"] as? [String: Any])?["cameraMake"] as? String == "Make 2")
            #expect(
                photo.json["perceptualHash"] as? String == "000000000001e1e0"
                    && photo.json["thumbnailWidth"] as? Int == 2
            )
            #expect(try await client.execute(uri: "/api/v1/photo?path=/lib/none.jpg", method: .get).status == .notFound)

            let groups = try await client.execute(uri: "/api/v1/duplicates", method: .get)
            let similar = try #require(groups.json["similar"] as? [[String: Any]])
            #expect(
                similar.map { ($0["photos"] as? [[String: Any]])?.compactMap { $0["path"] as? String } } == [
                    ["/lib/p1.jpg", "/lib/p0.jpg"]
                ],
                "equal pixels (none recorded): the larger file first"
            )
            #expect(groups.json["distance"] as? Int == 10 && groups.json["exactGroups"] as? Int == 0)
            let tight = try await client.execute(uri: "/api/v1/duplicates?distance=1", method: .get)
            #expect(tight.json["similarGroups"] as? Int == 0, "4 bits apart is beyond 1")
            #expect(try await client.execute(uri: "/api/v1/duplicates?distance=17", method: .get).status == .badRequest)
        }
    }

    @Test func thePagesAreServedAndTheirDataWantsTheToken() async throws {
        let fixture = try Self.fixture(token: "secret")
        try await fixture.test { client in
            for page in ["/library", "/duplicates", "/pictures.js", "/pictures.css"] {
                let answer = try await client.execute(uri: page, method: .get)
                #expect(
                    answer.status == .ok
                        && answer.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true,
                    "\(page)"
                )
            }
            #expect(try await client.execute(uri: "/library", method: .get).text.contains("id=\"token-form\""))
            #expect(
                try await client.execute(uri: "/api/v1/thumbnail?path=/lib/p1.jpg", method: .get).status
                    == .unauthorized
            )
            let given = try await client.execute(
                uri: "/api/v1/thumbnail?path=/lib/p1.jpg",
                method: .get,
                headers: [.authorization: "Bearer secret"]
            )
            #expect(given.status == .ok)
        }
    }
}
