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

/// What people read (issue 29, items 8 and 9): names and reasons with control characters
/// reach no terminal raw, from any command, and a newline in a name forges no record; the
/// command line's edges — a southern `--near`, a folder whose name looks like a glob, the
/// ETA's reason.
@Suite(.serialized, .ownThread) struct TerminalAndCommandLineTests {
    static let escape = "\u{1B}", bell = "\u{07}"

    @Test func controlCharactersInNamesAndReasonsAreShownEscapedEverywhere() throws {
        let folder = try temporaryDirectory()
        let photos = folder.appendingPathComponent("photos")
        let written = try PhotomillBinary.run([
            "samples", photos.path, "--count", "2", "--seed", "8", "--photo-size", "160x120",
        ])
        try #require(written.status == 0, "\(written.stderr)")
        let broken = Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x41, count: 300))
        let titleChange = "esc\(Self.escape)]0;owned\(Self.bell).jpg"
        let forged = "two\n  metadata corrupt · 1 attempt · last worker none · forged.jpg"
        try broken.write(to: photos.appendingPathComponent(titleChange))
        try broken.write(to: photos.appendingPathComponent(forged))
        let red = "red\(Self.escape)[31m.jpg"
        try FileManager.default.copyItem(
            at: photos.appendingPathComponent("IMG_0001.jpg"),
            to: photos.appendingPathComponent(red)
        )
        let catalog = folder.appendingPathComponent("catalog.sqlite").path

        func expectClean(_ text: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(
                !text.contains(Self.escape) && !text.contains(Self.bell) && !text.contains("\r"),
                "\(context): \(text.debugDescription)",
                sourceLocation: sourceLocation
            )
        }
        let run = try PhotomillBinary.run([
            "run", photos.path, "--workers", "1", "--catalog", catalog, "--no-exports",
            "--kinds", "hash,metadata",
        ])
        #expect(run.status == 1, "\(run.stderr)")
        expectClean(run.stdout, "run's summary")
        expectClean(run.stderr, "run's log")
        #expect(run.stdout.contains("esc\\x1B]0;owned\\x07.jpg"), "\(run.stdout)")
        #expect(run.stdout.contains("two\\n  metadata corrupt"), "\(run.stdout)")
        #expect(
            !run.stdout.split(separator: "\n").contains {
                $0.hasPrefix("  metadata corrupt · 1 attempt · last worker none · forged")
            }
        )

        let failed = try PhotomillBinary.run(["failed", "--catalog", catalog])
        expectClean(failed.stdout, "failed")
        let failures = try CatalogQuery.count(
            URL(fileURLWithPath: catalog),
            "SELECT COUNT(*) FROM tasks WHERE state = 'failed'"
        )
        #expect(failures >= 2, "the two broken files' metadata")
        #expect(
            failed.stdout.split(separator: "\n").count == 3 * failures + 1,
            "three lines a failure and the total:\n\(failed.stdout)"
        )
        #expect(failed.stdout.contains("two\\n  metadata corrupt · 1 attempt · last worker none · forged.jpg\n"))

        let specs =
            try JSONSerialization.jsonObject(with: Data(contentsOf: photos.appendingPathComponent("samples.json")))
            as! [String: Any]
        let model = try #require(
            ((specs["files"] as! [[String: Any]]).first { $0["file"] as? String == "IMG_0001.jpg" }?["exif"]
                as? [String: Any])?["model"] as? String
        )
        let search = try PhotomillBinary.run(["search", "--camera", model, "--catalog", catalog])
        expectClean(search.stdout, "search")
        #expect(search.stdout.contains("red\\x1B[31m.jpg"), "\(search.stdout)")
        let duplicates = try PhotomillBinary.run(["duplicates", "--catalog", catalog])
        expectClean(duplicates.stdout, "duplicates")
        #expect(duplicates.stdout.contains("red\\x1B[31m.jpg"), "\(duplicates.stdout)")

        let pause = try PhotomillBinary.run([
            "pause", "ocr", "--reason", "clear\(Self.escape)[2J\(Self.escape)[H", "--catalog", catalog,
        ])
        #expect(pause.status == 0, "\(pause.stderr)")
        expectClean(pause.stdout, "pause")
        let status = try PhotomillBinary.run(["status", "--catalog", catalog])
        expectClean(status.stdout, "status")
        #expect(status.stdout.contains("clear\\x1B[2J\\x1B[H"), "\(status.stdout)")
        // JSON stays JSON: the same name, escaped as JSON escapes it.
        let json = try PhotomillBinary.run(["failed", "--json", "--catalog", catalog])
        expectClean(json.stdout, "failed --json")
        #expect(
            try PhotomillBinary.jsonLines(json).contains {
                $0["path"] as? String == photos.appendingPathComponent(titleChange).path
            }
        )
    }

    @Test func aWorkerFedBytesShowsTheSlotsItWasGiven() throws {
        let folder = try temporaryDirectory()
        let photos = folder.appendingPathComponent("photos")
        let written = try PhotomillBinary.run([
            "samples", photos.path, "--count", "2", "--seed", "6", "--photo-size", "160x120",
        ])
        try #require(written.status == 0, "\(written.stderr)")
        let cluster = try BytesFedCluster(directory: folder, photos: photos)
        #expect(
            eventually(seconds: 60) {
                (try? CatalogQuery.count(cluster.catalog, "SELECT COUNT(*) FROM workers WHERE state = 'connected'"))
                    == 1
            }
        )
        let status = try PhotomillBinary.run(["status", "--json", "--catalog", cluster.catalog.path])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let workers = try #require(report["workers"] as? [[String: Any]])
        #expect(workers.map { $0["slots"] as? Int } == [1], "worker --slots 1: \(workers)")
        cluster.worker.signal(SIGTERM)
        cluster.coordinator.signal(SIGTERM)
        #expect(cluster.coordinator.wait(seconds: 30) == 0)
    }

    @Test func aSouthernPlaceIsAValueNotAFlag() throws {
        let fixture = try ProcessedSet.shared.get()
        let near = try PhotomillBinary.run([
            "search", "--json", "--near", "-33.86,151.21,5", "--catalog", fixture.catalog.path,
        ])
        #expect(near.status == 0, "\(near.stderr)")
        let found = Set(try PhotomillBinary.jsonLines(near).map { $0["path"] as! String })
        var expected = Set(
            fixture.specs.filter { spec in
                guard let exif = spec["exif"] as? [String: Any], let lat = exif["gpsLatitude"] as? Double,
                    let lon = exif["gpsLongitude"] as? Double
                else { return false }
                return haversineKm((-33.86, 151.21), (lat, lon)) <= 5
            }.map { fixture.path($0["file"] as! String) }
        )
        if expected.contains(fixture.path("IMG_0001.jpg")) { expected.insert(fixture.path("copy-of-0001.jpg")) }
        #expect(!expected.isEmpty && found == expected, "\(found) vs \(expected)")
        let rejected = try PhotomillBinary.run(["search", "--rating", "-1", "--catalog", fixture.catalog.path])
        #expect(rejected.status == 0, "\(rejected.stderr)")
    }

    @Test func aFolderWhoseNameLooksLikeAGlobIsThatFolderAndTheETASaysWhichKindsStand() throws {
        let folder = try temporaryDirectory()
        let photos = folder.appendingPathComponent("photos")
        let trip = photos.appendingPathComponent("[2019] Trip")
        let other = photos.appendingPathComponent("2019 other")
        for (place, seed) in [(trip, "1"), (other, "2")] {
            let written = try PhotomillBinary.run([
                "samples", place.path, "--count", "2", "--seed", seed, "--photo-size", "160x120",
            ])
            try #require(written.status == 0, "\(written.stderr)")
        }
        let catalog = folder.appendingPathComponent("catalog.sqlite")
        let run = try PhotomillBinary.run([
            "run", photos.path, "--workers", "1", "--catalog", catalog.path, "--no-exports", "--kinds", "hash",
        ])
        #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
        // A coordinator that wants metadata too, and no worker: its scan queues them.
        let coordinator = try BackgroundProcess([
            "coordinator", "--bind", "ipc://\(folder.path)/c.sock", "--catalog", catalog.path,
            "--no-exports", "--no-http", "--kinds", "hash,metadata", photos.path,
        ])
        #expect(
            eventually(seconds: 60) {
                (try? CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE kind = 'metadata'"))
                    == (try? CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE kind = 'hash'"))
            },
            "\(coordinator.stderr)"
        )
        coordinator.signal(SIGTERM)
        #expect(coordinator.wait(seconds: 30) != nil)
        let pending = try CatalogQuery.count(
            catalog,
            """
            SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId
            WHERE t.state = 'pending' AND substr(p.path, 1, \(trip.path.utf8.count + 1)) = '\(trip.path)/'
            """
        )
        #expect(pending > 0)
        for target in ["[2019] Trip", trip.path] {
            let moved = try PhotomillBinary.run(["prioritize", target, "--catalog", catalog.path], in: photos)
            #expect(moved.status == 0, "\(target): \(moved.stderr)")
            #expect(
                moved.stdout.contains("moved \(pending) pending tasks of photos under '\(trip.path)'"),
                "\(target): \(moved.stdout)"
            )
        }

        // Hashes finished a moment ago; the other kinds wait, and the ETA says which.
        let recent = try CatalogQuery.count(
            catalog,
            "SELECT COUNT(*) FROM attempts WHERE kind = 'hash' AND outcome = 'done' AND endedAt > strftime('%s','now') - 60"
        )
        #expect(recent > 0)
        let status = try PhotomillBinary.run(["status", "--catalog", catalog.path])
        #expect(
            status.stdout.contains("ETA unknown (no metadata task finished in the last minute)"),
            "\(status.stdout)"
        )
    }
}
