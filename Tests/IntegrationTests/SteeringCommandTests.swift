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
import PhotomillTestSupport
import Testing

/// pause, resume, prioritize and the HTTP flags as the built binary runs them, on a copy
/// of the processed set's catalog; the catalog is read back with Python's sqlite3.
@Suite(.ownThread) struct SteeringCommandTests {
    let catalog: URL
    let photos: URL

    init() throws {
        let fixture = try ProcessedSet.shared.get()
        catalog = try fixture.catalogCopy()
        photos = fixture.photos
    }

    private func run(_ arguments: [String]) throws -> PhotomillBinary.Outcome {
        try PhotomillBinary.run(arguments + ["--catalog", catalog.path])
    }

    private func object(_ outcome: PhotomillBinary.Outcome) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any],
            "\(outcome.stdout)"
        )
    }

    @Test("pause and resume are kept in the catalog, and status says what waits and why")
    func pauseAndResume() throws {
        let paused = try run(["pause", "ocr", "thumbnail", "--reason", "thumbnails first", "--json"])
        #expect(paused.status == 0, "\(paused.stderr)")
        #expect(try object(paused)["changed"] as? [String] == ["thumbnail", "ocr"])
        #expect(
            try CatalogQuery.rows(catalog, "SELECT kind, reason FROM pauses ORDER BY kind") == [
                ["ocr", "thumbnails first"], ["thumbnail", "thumbnails first"],
            ]
        )
        // Put some OCR work back, so that something waits for the pause.
        #expect(try run(["reprocess", "--all", "--kind", "ocr"]).status == 0)
        let status = try object(try run(["status", "--json"]))
        #expect((status["paused"] as? [String: [String: String]])?["ocr"]?["reason"] == "thumbnails first")
        #expect((status["waiting"] as? [String: String])?["ocr"]?.hasPrefix("paused (thumbnails first)") == true)
        let resumed = try object(try run(["resume", "--json"]))
        #expect(
            resumed["changed"] as? [String] == ["thumbnail", "ocr"]
                && (resumed["paused"] as? [String: Any])?.isEmpty == true
        )
        #expect(try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM pauses") == 0)
    }

    @Test("prioritize a folder: its pending tasks get the front rank, counted as sqlite3 counts them")
    func prioritizeAFolder() throws {
        #expect(try run(["reprocess", "--all", "--kind", "thumbnail"]).status == 0)
        let moved = try object(try run(["prioritize", photos.path, "--json"]))
        let pending = try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE state = 'pending'")
        #expect(moved["tasks"] as? Int == pending && pending > 0)
        // Below every scan's rank (minus seconds since 1970): -2^40 minus the requeues row's id.
        let ranks = try CatalogQuery.rows(catalog, "SELECT DISTINCT rank FROM tasks WHERE state = 'pending'").map {
            Int64($0[0]) ?? 0
        }
        let requeue = try CatalogQuery.count(catalog, "SELECT MAX(id) FROM requeues WHERE command = 'prioritize'")
        #expect(ranks == [-(1 << 40) - Int64(requeue)])
    }

    @Test("bad input exits 64 and says what to do")
    func refusals() throws {
        let cases: [([String], String)] = [
            (["pause", "colour"], "unknown kind 'colour'"),
            (["prioritize", "photos/*"], "start the glob with / or *"),
            (["run", photos.path, "--http", "0.0.0.0:9380"], "give --http-token-file FILE"),
            (["run", photos.path, "--http", "localhost"], "is not ADDRESS:PORT"),
            (["run", photos.path, "--no-http", "--http", "127.0.0.1:1"], "--no-http turns the dashboard off"),
        ]
        for (arguments, says) in cases {
            let outcome = try run(arguments)
            #expect(
                outcome.status == 64 && outcome.stderr.contains(says),
                "\(arguments): \(outcome.status) \(outcome.stderr)"
            )
        }
        let token = catalog.deletingLastPathComponent().appendingPathComponent("token")
        try Data("a-token-of-enough-length-1234\n".utf8).write(to: token)
        chmod(token.path, 0o644)
        let open = try run(["run", photos.path, "--http", "0.0.0.0:0", "--http-token-file", token.path])
        #expect(open.status == 64 && open.stderr.contains("must not be readable by group or others"), "\(open.stderr)")
    }
}
