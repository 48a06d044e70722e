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

/// A coordinator that keeps a living library processed (issue 26): the real binary, a
/// real worker, inotify on a real file system. Files are added, replaced, deleted, moved
/// and renamed while it runs; each change is waited for as a row in the catalog (read by
/// Python's sqlite3), and each hash is checked against Python's hashlib. References: the
/// files on disk, hashlib, sqlite3, plistlib, urllib.
@Suite(.serialized, .ownThread) struct LivingLibraryTests {
    /// Good JPEG samples (not broken, not skipped), by absolute path.
    static func samples(in directory: URL, count: Int = 14, seed: Int = 26) throws -> [String] {
        let source = directory.appendingPathComponent("source")
        let made = try PhotomillBinary.run([
            "samples", source.path, "--count", String(count), "--seed", String(seed), "--photo-size", "64x48",
        ])
        try #require(made.status == 0, "\(made.stderr)")
        let manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: source.appendingPathComponent("samples.json")))
            as? [String: Any]
        return (manifest?["files"] as? [[String: Any]] ?? [])
            .filter { $0["broken"] == nil && $0["skipped"] == nil && ($0["file"] as? String ?? "").hasSuffix(".jpg") }
            .map { source.appendingPathComponent($0["file"] as? String ?? "").path }
    }

    static func md5(_ path: String) throws -> String {
        try Tool.value(
            "python3",
            ["-c", "import hashlib,sys; print(hashlib.md5(open(sys.argv[1],'rb').read()).hexdigest())", path]
        )
    }

    static func copy(_ from: String, _ to: URL) throws {
        try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: from, toPath: to.path)
    }

    @Test func changesWhileTheCoordinatorRunsAreFollowed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try Self.samples(in: directory)
        try #require(good.count >= 8)
        let library = directory.appendingPathComponent("library")
        let catalog = directory.appendingPathComponent("catalog.sqlite")
        let exports = directory.appendingPathComponent("exports")
        let (trip, keep) = (library.appendingPathComponent("trip"), library.appendingPathComponent("keep"))
        for index in 0..<3 { try Self.copy(good[index], trip.appendingPathComponent("IMG_\(index).jpg")) }
        try Self.copy(good[3], keep.appendingPathComponent("K.jpg"))
        try "private/\n".write(
            to: library.appendingPathComponent(".photomillignore"),
            atomically: true,
            encoding: .utf8
        )
        let endpoint = "ipc://\(directory.path)/coordinator.sock"
        let coordinator = try BackgroundProcess([
            "coordinator", "--bind", endpoint, "--catalog", catalog.path, "--exports", exports.path, "--kinds",
            "hash,metadata",
            "--settle", "0.5", "--exclude", "*.skip.jpg", "--http", "127.0.0.1:0", library.path,
        ])
        let worker = try BackgroundProcess(["worker", "--connect", endpoint, "--slots", "2", "--root", library.path])
        defer {
            worker.signal(SIGTERM)
            coordinator.signal(SIGTERM)
            worker.wait(seconds: 10)
            coordinator.wait(seconds: 10)
        }
        func rows(_ sql: String) throws -> [[String]] { try CatalogQuery.rows(catalog, sql) }
        func md5(at path: URL) throws -> String? {
            try rows("SELECT md5 FROM photos WHERE path = '\(path.path)' AND missingAt IS NULL").first?.first
        }
        func hashed(_ path: URL) throws -> Bool { try md5(at: path) == Self.md5(path.path) }
        let first =
            [0, 1, 2].map { trip.appendingPathComponent("IMG_\($0).jpg") } + [keep.appendingPathComponent("K.jpg")]
        #expect(try eventually(seconds: 60) { try first.allSatisfy(hashed) }, "\(coordinator.stderr)")
        let attempts = { try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM attempts") }
        let idOf = { (path: URL) in try rows("SELECT id FROM photos WHERE path = '\(path.path)'").first?.first }

        // Added: a new photo copied in is hashed, with its metadata.
        let added = keep.appendingPathComponent("new.jpg")
        try Self.copy(good[4], added)
        #expect(try eventually(seconds: 30) { try hashed(added) }, "\(coordinator.stderr)")
        #expect(
            try eventually(seconds: 10) {
                try CatalogQuery.count(
                    catalog,
                    "SELECT COUNT(*) FROM metadata m JOIN photos p ON p.id = m.photoId WHERE p.path = '\(added.path)'"
                ) == 1
            }
        )

        // Replaced: another photo copied over one: the same row, the new hash.
        let replaced = first[0]
        let replacedId = try idOf(replaced)
        try FileManager.default.removeItem(at: replaced)
        try FileManager.default.copyItem(atPath: good[5], toPath: replaced.path)
        #expect(try eventually(seconds: 30) { try md5(at: replaced) == Self.md5(good[5]) }, "\(coordinator.stderr)")
        #expect(try idOf(replaced) == replacedId)

        // Deleted: missing.
        let deleted = first[1]
        try FileManager.default.removeItem(at: deleted)
        #expect(
            try eventually(seconds: 20) {
                try rows("SELECT missingAt IS NOT NULL FROM photos WHERE path = '\(deleted.path)'") == [["1"]]
            }
        )

        // Moved to another folder, and a folder renamed: the same rows, no work.
        try FileManager.default.createDirectory(
            at: library.appendingPathComponent("later"),
            withIntermediateDirectories: true
        )
        #expect(
            try eventually(seconds: 20) {
                try rows("SELECT COUNT(*) FROM tasks WHERE state IN ('pending', 'leased')") == [["0"]]
            }
        )
        let settledAttempts = try attempts()
        let movedFile = library.appendingPathComponent("later/new.jpg")
        let addedId = try idOf(added)
        try FileManager.default.moveItem(at: added, to: movedFile)
        let renamed = library.appendingPathComponent("2024-trip")
        let keptId = try idOf(first[2])
        try FileManager.default.moveItem(at: trip, to: renamed)
        #expect(
            try eventually(seconds: 20) {
                try idOf(movedFile) == addedId && idOf(renamed.appendingPathComponent("IMG_2.jpg")) == keptId
            },
            "\(coordinator.stderr)"
        )
        #expect(
            try rows("SELECT COUNT(*) FROM photos WHERE path LIKE '\(trip.path)/%' AND missingAt IS NULL") == [["0"]]
        )
        #expect(
            try rows("SELECT COUNT(*) FROM tasks WHERE state IN ('pending', 'leased')") == [["0"]],
            "a rename queues nothing"
        )
        #expect(try attempts() == settledAttempts, "and processes nothing again")

        // Excluded, by --exclude and by .photomillignore: never catalogued, never leased;
        // `photomill scan` waits until the coordinator has looked.
        try Self.copy(good[6], library.appendingPathComponent("x.skip.jpg"))
        try Self.copy(good[7], library.appendingPathComponent("private/p.jpg"))
        let scan = try PhotomillBinary.run(["scan", "--catalog", catalog.path, "--json"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let answer = try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any]
        #expect(answer?["done"] as? Bool == true)
        #expect(
            try rows("SELECT COUNT(*) FROM photos WHERE path LIKE '%skip.jpg' OR path LIKE '%/private/%'") == [["0"]]
        )
        #expect(
            try rows("SELECT COUNT(*) FROM attempts a JOIN photos p ON p.id = a.photoId WHERE p.path LIKE '%skip.jpg'")
                == [["0"]]
        )
        let skipped = try PhotomillBinary.run(["skipped", "--catalog", catalog.path, "--reason", "excluded"])
        #expect(
            skipped.stdout.contains(library.appendingPathComponent("x.skip.jpg").path)
                && skipped.stdout.contains("--exclude"),
            "\(skipped.stdout)"
        )
        #expect(
            skipped.stdout.contains(library.appendingPathComponent("private").path)
                && skipped.stdout.contains(".photomillignore:1")
        )
        // A catalogued photo that becomes excluded is missing, with the rule.
        try "private/\nkeep/K.jpg\n".write(
            to: library.appendingPathComponent(".photomillignore"),
            atomically: true,
            encoding: .utf8
        )
        #expect(
            try eventually(seconds: 20) {
                try rows("SELECT missingAt IS NOT NULL, excludedBy FROM photos WHERE path = '\(first[3].path)'")
                    == [["1", "\(library.path)/.photomillignore:2 \"keep/K.jpg\""]]
            },
            "\(coordinator.stderr)"
        )

        // The exports follow: the manifest names the moved photo, not the deleted or excluded ones.
        let manifest = exports.appendingPathComponent("manifest.plist").path
        let listed = {
            Set(
                try Tool.output(
                    "python3",
                    [
                        "-c",
                        "import plistlib,sys; [print(e['path']) for e in plistlib.load(open(sys.argv[1],'rb'))['photos']]",
                        manifest,
                    ]
                )
                .split(separator: "\n").map(String.init)
            )
        }
        #expect(
            try eventually(seconds: 60) {
                let paths = (try? listed()) ?? []
                return paths.contains(movedFile.path) && !paths.contains(deleted.path) && !paths.contains(first[3].path)
                    && paths.contains(renamed.appendingPathComponent("IMG_2.jpg").path)
            },
            "\(String(describing: try? listed()))"
        )

        // `status` says what is watched; SIGHUP asks for a full scan (and the coordinator lives on),
        // and so does the API.
        let status = try PhotomillBinary.run(["status", "--catalog", catalog.path, "--json"])
        let libraryStatus =
            (try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])?["library"]
            as? [String: Any]
        #expect(libraryStatus?["watching"] as? Bool == true)
        #expect((libraryStatus?["watchedFolders"] as? Int ?? 0) >= 4, "library, keep, later, 2024-trip")
        coordinator.signal(SIGHUP)
        #expect(
            try eventually(seconds: 20) {
                try rows("SELECT COUNT(*) FROM scan_requests WHERE origin = 'signal' AND finishedAt IS NOT NULL") == [
                    ["1"]
                ]
            },
            "\(coordinator.stderr)"
        )
        let port = try #require(coordinator.stderr.firstMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\//)?.1)
        let posted = try Tool.output(
            "python3",
            [
                "-c",
                """
                import json, urllib.request, sys
                request = urllib.request.Request(sys.argv[1], data=b'{}', headers={'Content-Type': 'application/json'})
                print(json.load(urllib.request.urlopen(request))['request'])
                """, "http://127.0.0.1:\(port)/api/v1/scan",
            ]
        )
        #expect(
            try eventually(seconds: 20) {
                try rows(
                    "SELECT origin, finishedAt IS NOT NULL FROM scan_requests WHERE id = \(posted.trimmingCharacters(in: .whitespacesAndNewlines))"
                )
                    == [["api", "1"]]
            }
        )
        #expect(coordinator.isRunning, "SIGHUP no longer ends the coordinator")
    }

    @Test func runWatchGoesOnUntilCtrlC() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try Self.samples(in: directory, count: 12, seed: 3)
        let library = directory.appendingPathComponent("library")
        let catalog = directory.appendingPathComponent("catalog.sqlite")
        try Self.copy(good[0], library.appendingPathComponent("a.jpg"))
        let run = try BackgroundProcess([
            "run", "--watch", "--workers", "1", "--kinds", "hash", "--settle", "0.3", "--no-http",
            "--no-exports", "--catalog", catalog.path, library.path,
        ])
        #expect(
            try eventually(seconds: 60) {
                try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM photos WHERE md5 IS NOT NULL") == 1
            }
        )
        let added = library.appendingPathComponent("b.jpg")
        try Self.copy(good[1], added)
        #expect(
            try eventually(seconds: 30) {
                try CatalogQuery.rows(catalog, "SELECT md5 FROM photos WHERE path = '\(added.path)'").first?.first
                    == Self.md5(added.path)
            },
            "\(run.stderr)"
        )
        #expect(run.isRunning, "it watches until Ctrl-C")
        run.signal(SIGINT)
        #expect(run.wait(seconds: 30) == 0, "its work was done: \(run.stderr)")

        // With work left (a paused kind), Ctrl-C is an interruption.
        _ = try PhotomillBinary.run(["pause", "hash", "--catalog", catalog.path])
        try Self.copy(good[2], library.appendingPathComponent("c.jpg"))
        let again = try BackgroundProcess([
            "run", "--watch", "--workers", "1", "--kinds", "hash", "--no-http", "--no-exports",
            "--catalog", catalog.path, library.path,
        ])
        #expect(
            try eventually(seconds: 30) {
                try CatalogQuery.count(
                    catalog,
                    "SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path LIKE '%/c.jpg' AND t.state = 'pending'"
                ) == 1
            }
        )
        again.signal(SIGINT)
        #expect(again.wait(seconds: 30) == 130, "\(again.stderr)")
    }

    @Test func pastTheWatchLimitFoldersArePolledAndNothingIsMissed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try Self.samples(in: directory, count: 12, seed: 9)
        let library = directory.appendingPathComponent("library")
        let catalog = directory.appendingPathComponent("catalog.sqlite")
        for folder in ["a", "b", "c", "d"] { try Self.copy(good[0], library.appendingPathComponent("\(folder)/x.jpg")) }
        let endpoint = "ipc://\(directory.path)/coordinator.sock"
        let coordinator = try BackgroundProcess([
            "coordinator", "--bind", endpoint, "--catalog", catalog.path, "--no-exports",
            "--kinds", "hash", "--settle", "0.3", "--max-watches", "2", "--no-http", library.path,
        ])
        defer {
            coordinator.signal(SIGTERM)
            coordinator.wait(seconds: 10)
        }
        // Walked depth-first, names sorted: the library and a are watched; b, c, d polled.
        #expect(eventually(seconds: 30) { coordinator.stderr.contains("folders are polled") }, "\(coordinator.stderr)")
        let log = coordinator.stderr
        #expect(log.contains("watching 2 folders") && log.contains("3 folders are polled"), "\(log)")
        #expect(log.contains("fs.inotify.max_user_watches"), "the sysctl that raises the limit")
        #expect(
            log.contains(library.appendingPathComponent("b").path)
                && log.contains(library.appendingPathComponent("d").path)
        )
        // A change in a watched folder is seen; one in a polled folder is found by the rescan asked for.
        try Self.copy(good[1], library.appendingPathComponent("a/y.jpg"))
        try Self.copy(good[1], library.appendingPathComponent("c/y.jpg"))
        #expect(
            try eventually(seconds: 20) {
                try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM photos WHERE path LIKE '%/a/y.jpg'") == 1
            }
        )
        #expect(
            try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM photos WHERE path LIKE '%/c/y.jpg'") == 0,
            "not watched"
        )
        let scan = try PhotomillBinary.run(["scan", "--catalog", catalog.path])
        #expect(scan.status == 0 && scan.stdout.contains("1 new"), "\(scan.stdout) \(scan.stderr)")
        #expect(try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM photos WHERE path LIKE '%/c/y.jpg'") == 1)
        let status = try PhotomillBinary.run(["status", "--catalog", catalog.path])
        #expect(status.stdout.contains("watching: 2 folders (inotify), 3 polled"), "\(status.stdout)")
    }
}
