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

/// The API's routes in process: reads answered by the views from what the catalog holds,
/// actions written to the catalog (read back through it), bad filters named.
@Suite struct APITests {
    @Test("reads: status, workers and failed come from the catalog through the CLI's views")
    func reads() async throws {
        let fixture = try Fixture(hashes: 3)
        try await fixture.test { client in
            let status = try await client.execute(uri: "/api/v1/status", method: .get)
            #expect(status.status == .ok && status.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(status.json["view"] as? String == "status" && status.json["hashPending"] as? Int == 3)
            #expect(try await client.execute(uri: "/api/v1/workers", method: .get).json["view"] as? String == "workers")
            let failed = try await client.execute(uri: "/api/v1/failed?kind=ocr&order=newest", method: .get)
            #expect(failed.json["paths"] as? [String] == ["/lib/gone.jpg"])
            let none = try await client.execute(uri: "/api/v1/failed?kind=hash", method: .get)
            #expect(none.json["paths"] as? [String] == [])
        }
    }

    @Test("actions: retry, pause and resume change the catalog as the CLI does")
    func actions() async throws {
        let fixture = try Fixture()
        try await fixture.test { client in
            let dry = try await client.execute(
                uri: "/api/v1/retry",
                method: .post,
                headers: jsonHeaders(),
                body: ByteBuffer(string: #"{"kind":"ocr","dryRun":true}"#)
            )
            #expect(dry.json["tasks"] as? Int == 1 && dry.json["dryRun"] as? Bool == true)
            #expect(try fixture.catalog.status().count(.ocr, .failed) == 1, "a dry run changes nothing")
            let retried = try await client.execute(
                uri: "/api/v1/retry",
                method: .post,
                headers: jsonHeaders(),
                body: ByteBuffer(string: #"{"path":"/lib/gone.jpg"}"#)
            )
            #expect(retried.json["tasks"] as? Int == 1)
            #expect(try fixture.catalog.status().count(.ocr, .pending) == 1)

            let paused = try await client.execute(
                uri: "/api/v1/pause",
                method: .post,
                headers: jsonHeaders(),
                body: ByteBuffer(string: #"{"kind":"ocr,thumbnail","reason":"thumbnails first"}"#)
            )
            #expect(paused.json["paused"] as? [String] == ["thumbnail", "ocr"] && paused.json["changed"] as? Int == 2)
            #expect(try fixture.catalog.steering().paused[.ocr]?.reason == "thumbnails first")
            let resumed = try await client.execute(
                uri: "/api/v1/resume",
                method: .post,
                headers: jsonHeaders(),
                body: ByteBuffer()
            )
            #expect(
                resumed.json["paused"] as? [String] == [] && resumed.json["changed"] as? Int == 2,
                "no kind named: every kind"
            )
        }
    }

    @Test("a bad filter is a 400 that names it, and changes nothing")
    func badFilters() async throws {
        let fixture = try Fixture()
        try await fixture.test { client in
            let cases: [(String, String, String)] = [
                ("/api/v1/retry", #"{"kind":"colour"}"#, "unknown kind 'colour'"),
                (
                    "/api/v1/retry", #"{"class":"corupt"}"#,
                    "class 'corupt' is not an error class of this catalog; failed tasks have: unreadable"
                ),
                ("/api/v1/retry", #"{"path":"lib/*"}"#, "start the glob with / or *"),
                ("/api/v1/pause", #"{"kind":"everything"}"#, "unknown kind 'everything'"),
                ("/api/v1/retry", "[1,2]", "must be a JSON object of filters"),
                ("/api/v1/prioritize", "{}", "give the folder as path"),
            ]
            for (uri, body, says) in cases {
                let response = try await client.execute(
                    uri: uri,
                    method: .post,
                    headers: jsonHeaders(),
                    body: ByteBuffer(string: body)
                )
                #expect(response.status == .badRequest, "\(uri) \(body)")
                #expect((response.json["error"] as? String)?.contains(says) == true, "\(uri) \(body): \(response.text)")
            }
            let limit = try await client.execute(uri: "/api/v1/failed?limit=0", method: .get)
            #expect(limit.status == .badRequest)
            #expect(try fixture.catalog.status().count(.ocr, .failed) == 1 && fixture.catalog.steering().paused.isEmpty)
        }
    }

    @Test("the throughput chart: tasks finished per interval, from the differences of the counts")
    func throughputHistory() {
        var history = ThroughputHistory(interval: 10, span: 30)
        func figures(at: Double, done: Int, failed: Int) -> CatalogFigures {
            var figures = CatalogFigures()
            figures.readAt = at
            figures.counts = [.hash: [.done: done, .failed: failed, .pending: 100 - done - failed]]
            return figures
        }
        history.record(figures(at: 0, done: 5, failed: 0))
        history.record(figures(at: 10, done: 25, failed: 1))
        history.record(figures(at: 20, done: 25, failed: 1))
        history.record(figures(at: 30, done: 20, failed: 0))  // `retry` and `reprocess` lower the counts
        history.record(figures(at: 40, done: 50, failed: 0))
        #expect(history.points.map(\.at) == [20, 30, 40], "an hour's capacity: here 30 s of 10 s intervals")
        #expect(history.points.map { $0.finished["hash"] } == [0, 0, 30])
    }
}
