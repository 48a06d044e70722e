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

/// Issue 27, item 4: a folder as a failed phone sync and a careless link leave it. The
/// expected failures and skips are the test's own making (what it put where), and each
/// catalogued hash is checked against Python's hashlib.
@Suite(.ownThread) struct NothingSkippedInSilenceTests {
    @Test func filesNamedAsPhotosFailByNameAndEverySkipSaysWhy() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try LivingLibraryTests.samples(in: directory, count: 12, seed: 27)
        try #require(good.count >= 2)
        let library = directory.appendingPathComponent("library")
        let catalog = directory.appendingPathComponent("catalog.sqlite")
        let elsewhere = directory.appendingPathComponent("elsewhere")
        func path(_ name: String) -> String { library.appendingPathComponent(name).path }
        try LivingLibraryTests.copy(good[0], library.appendingPathComponent("a.jpg"))
        try LivingLibraryTests.copy(good[1], library.appendingPathComponent("sub/b.jpg"))
        try LivingLibraryTests.copy(good[1], elsewhere.appendingPathComponent("c.jpg"))
        // A failed sync: a zero-byte photo and a text file named as one.
        FileManager.default.createFile(atPath: path("IMG_0001.jpg"), contents: Data())
        try "not a photo\n".write(toFile: path("notes.jpg"), atomically: true, encoding: .utf8)
        try "shopping list\n".write(toFile: path("readme.txt"), atomically: true, encoding: .utf8)
        // Links: a folder under the root (followed, its photo once), a folder outside the roots,
        // the root itself from below (a loop), a link to nothing.
        let links = FileManager.default
        try links.createSymbolicLink(atPath: path("again"), withDestinationPath: "sub")
        try links.createSymbolicLink(atPath: path("outside"), withDestinationPath: elsewhere.path)
        try links.createSymbolicLink(atPath: path("sub/up"), withDestinationPath: "..")
        try links.createSymbolicLink(atPath: path("gone.jpg"), withDestinationPath: "nowhere.jpg")
        // Special files named as photos, which a scan that opened them would hang on or fail.
        #expect(mkfifo(path("pipe.jpg"), 0o644) == 0)
        try Tool.output(
            "python3",
            ["-c", "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", path("sock.jpg")]
        )

        let run = try PhotomillBinary.run([
            "run", library.path, "--workers", "1", "--kinds", "hash", "--no-http", "--no-exports",
            "--catalog", catalog.path,
        ])
        #expect(run.status == 1, "two files failed: \(run.stdout)\n\(run.stderr)")
        let failed = try PhotomillBinary.jsonLines(
            try PhotomillBinary.run(["failed", "--json", "--catalog", catalog.path])
        )
        #expect(
            Set(failed.map { "\($0["path"] as? String ?? "?") \($0["errorClass"] as? String ?? "?")" })
                == [path("IMG_0001.jpg") + " empty", path("notes.jpg") + " not-an-image"],
            "\(failed)"
        )
        #expect(
            failed.allSatisfy { ($0["message"] as? String ?? "").contains($0["path"] as? String ?? "?") },
            "each message names its file"
        )

        let hashed = try CatalogQuery.rows(catalog, "SELECT path, md5 FROM photos WHERE md5 IS NOT NULL ORDER BY path")
        #expect(
            hashed == [
                [path("a.jpg"), try LivingLibraryTests.md5(good[0])],
                [path("sub/b.jpg"), try LivingLibraryTests.md5(good[1])],
            ],
            "the linked folder's photo once, nothing from outside the root"
        )

        let skipped = try PhotomillBinary.jsonLines(
            try PhotomillBinary.run(["skipped", "--json", "--catalog", catalog.path])
        )
        let reasons = Dictionary(
            skipped.map { ($0["path"] as? String ?? "?", $0["reason"] as? String ?? "?") },
            uniquingKeysWith: { $0 + "," + $1 }
        )
        #expect(
            reasons == [
                path("readme.txt"): "not-media", path("outside"): "link-outside-roots", path("sub/up"): "link-loop",
                path("gone.jpg"): "link-broken", path("pipe.jpg"): "fifo", path("sock.jpg"): "socket",
            ],
            "\(skipped)"
        )
        let status =
            try JSONSerialization.jsonObject(
                with: Data(
                    PhotomillBinary.run(["status", "--json", "--catalog", catalog.path]).stdout.utf8
                )
            ) as? [String: Any]
        #expect(
            (status?["library"] as? [String: Any])?["skipped"] as? [String: Int]
                == ["not-media": 1, "link-outside-roots": 1, "link-loop": 1, "link-broken": 1, "fifo": 1, "socket": 1]
        )
    }
}
