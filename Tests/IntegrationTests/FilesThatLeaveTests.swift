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

/// Files that leave, move, or are photomill's own (docs/reliability.md, "Accidents"): a
/// scan marks the photos it no longer finds missing and every report leaves them out; a
/// renamed photo keeps its results; hard links are not copies; `forget --missing` removes
/// the missing on request; a library scanned from inside (`cd ~/Pictures && photomill run
/// .`) never ingests its catalog or its exports. References: md5sum, the files on disk,
/// Python's sqlite3 and plistlib.
@Suite(.serialized, .ownThread) struct FilesThatLeaveTests {
    private func json(_ outcome: PhotomillBinary.Outcome) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any],
            "\(outcome.stdout)"
        )
    }

    /// The paths `manifest.plist` lists, read by Python's plistlib.
    private func manifestPaths(_ exports: URL) throws -> Set<String> {
        let out = try Tool.output(
            "python3",
            [
                "-c",
                """
                import plistlib, sys
                for entry in plistlib.load(open(sys.argv[1], 'rb'))['photos']: print(entry['path'])
                """, exports.appendingPathComponent("manifest.plist").path,
            ]
        )
        return Set(out.split(separator: "\n").map(String.init))
    }

    @Test func movedFilesKeepTheirResultsAndGoneOnesAreLeftOutUntilForgotten() throws {
        let bench = try FaultBench(count: 12, seed: 71)
        let exports = bench.directory.appendingPathComponent("exports")
        let good = bench.files.filter { !bench.broken.contains($0) }
        try #require(good.count >= 4 && !bench.broken.isEmpty)
        let (a, b, c) = (good[0], good[1], good[2])
        let aCopy = bench.photos.appendingPathComponent("A-copy.jpg").path
        let bLink = bench.photos.appendingPathComponent("B-link.jpg").path
        let bCopy = bench.photos.appendingPathComponent("B-copy.jpg").path
        try FileManager.default.copyItem(atPath: a, toPath: aCopy)
        try FileManager.default.copyItem(atPath: b, toPath: bCopy)
        #expect(link(b, bLink) == 0)
        let arguments = [
            "run", bench.photos.path, "--workers", "1", "--kinds", "hash,metadata", "--catalog", bench.catalog.path,
            "--exports", exports.path,
        ]
        #expect(try PhotomillBinary.run(arguments).status == 1, "the broken samples fail")
        let before = try CatalogQuery.rows(bench.catalog, "SELECT id, md5 FROM photos WHERE path = '\(a)'")
        let aId = try #require(before.first?.first)
        let cId = try #require(
            try CatalogQuery.rows(bench.catalog, "SELECT id FROM photos WHERE path = '\(c)'").first?.first
        )
        let attempts = try bench.count("SELECT COUNT(*) FROM attempts")

        // A moved into a new folder; its copy and the broken photos (whose tasks failed) deleted.
        let renamed = bench.photos.appendingPathComponent("moved/" + (a as NSString).lastPathComponent).path
        try FileManager.default.createDirectory(
            atPath: (renamed as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        try FileManager.default.moveItem(atPath: a, toPath: renamed)
        let holiday = bench.photos.appendingPathComponent("holiday.jpg").path
        try FileManager.default.moveItem(atPath: c, toPath: holiday)
        let gone = Set([aCopy] + bench.broken)
        for path in gone { try FileManager.default.removeItem(atPath: path) }
        let second = try PhotomillBinary.run(arguments)
        #expect(second.status == 0, "gone failures no longer count: \(second.stdout) \(second.stderr)")
        #expect(second.stdout.contains("2 moved, \(gone.count) missing"), "\(second.stdout)")
        #expect(
            try CatalogQuery.rows(bench.catalog, "SELECT id, md5 FROM photos WHERE path = '\(renamed)'")
                == [[aId, try Tool.md5(renamed)]],
            "the moved photo is the same row, with its hash (of the two copies that left, the one of its name)"
        )
        #expect(
            try CatalogQuery.rows(bench.catalog, "SELECT id FROM photos WHERE path = '\(holiday)'") == [[cId]],
            "renamed"
        )
        #expect(try bench.count("SELECT COUNT(*) FROM attempts") == attempts, "no photo was processed again")

        let present = Set(good.filter { $0 != a && $0 != c } + [renamed, holiday, bLink, bCopy])
        let status = try json(try PhotomillBinary.run(["status", "--json", "--catalog", bench.catalog.path]))
        #expect(status["photos"] as? Int == present.count && status["missingPhotos"] as? Int == gone.count, "\(status)")
        let tasks = status["tasks"] as? [String: [String: Int]] ?? [:]
        #expect(
            tasks["hash"]?["failed"] == 0 && tasks["metadata"]?["failed"] == 0
                && tasks["hash"]?["done"] == present.count,
            "\(tasks)"
        )
        let found = try PhotomillBinary.jsonLines(
            try PhotomillBinary.run(["search", "--type", "photo", "--json", "--catalog", bench.catalog.path])
        )
        #expect(Set(found.compactMap { $0["path"] as? String }) == present)
        #expect(try manifestPaths(exports) == present)

        // B, its hard link and its copy: two copies, one of them under two names.
        let duplicates = try PhotomillBinary.jsonLines(
            try PhotomillBinary.run(["duplicates", "--json", "--catalog", bench.catalog.path])
        )
        #expect(duplicates.count == 1, "the moved A has no copy left: \(duplicates)")
        #expect(duplicates.first?["md5"] as? String == (try Tool.md5(b)) && duplicates.first?["copies"] as? Int == 2)
        #expect(duplicates.first?["hardLinks"] as? [[String]] == [[b, bLink].sorted()], "\(duplicates)")
        let text = try PhotomillBinary.run(["duplicates", "--catalog", bench.catalog.path])
        #expect(
            text.stdout.contains("2 copies of") && text.stdout.contains("hard link of")
                && text.lines.last?.hasPrefix("1 groups; 1 redundant") == true,
            "\(text.stdout)"
        )

        let dry = try json(
            try PhotomillBinary.run(["forget", "--missing", "--dry-run", "--json", "--catalog", bench.catalog.path])
        )
        #expect(dry["paths"] as? [String] == gone.sorted() && dry["dryRun"] as? Bool == true, "\(dry)")
        #expect(
            try bench.count("SELECT COUNT(*) FROM photos WHERE missingAt IS NOT NULL") == gone.count,
            "a dry run forgets nothing"
        )
        let forgot = try PhotomillBinary.run(["forget", "--missing", "--catalog", bench.catalog.path])
        #expect(
            forgot.status == 0
                && forgot.lines.last == "forgot \(gone.count) missing photos with their tasks, results and history",
            "\(forgot.stdout) \(forgot.stderr)"
        )
        let list = gone.map { "'\($0)'" }.joined(separator: ",")
        #expect(try bench.count("SELECT COUNT(*) FROM photos WHERE path IN (\(list))") == 0)
        #expect(try bench.count("SELECT COUNT(*) FROM attempts WHERE photoId NOT IN (SELECT id FROM photos)") == 0)
        #expect(try bench.ledger().miscounted == 0)
        let third = try PhotomillBinary.run(arguments)
        #expect(
            third.status == 0
                && third.stdout.contains("0 new, 0 changed, \(present.count) unchanged photos; 0 tasks queued"),
            "\(third.stdout)"
        )
    }

    /// `cd ~/Pictures && photomill run .`, twice: the exports go beside the folder, not in
    /// it, the catalog's files are not photos, and the second run does nothing.
    @Test func runningTwiceInsideTheLibraryDoesNothingTheSecondTime() throws {
        let home = try temporaryDirectory()
        let pictures = home.appendingPathComponent("Pictures")
        #expect(
            try PhotomillBinary.run(["samples", pictures.path, "--count", "6", "--seed", "72", "--photo-size", "64x48"])
                .status == 0
        )
        let files = try FileManager.default.contentsOfDirectory(atPath: pictures.path)
        let media = files.filter { $0 != "samples.json" }
        let run = ["run", ".", "--workers", "1", "--kinds", "hash,thumbnail"]
        let first = try PhotomillBinary.run(run, in: pictures)
        #expect(first.status == 0 && first.stdout.contains("\(media.count) new"), "\(first.stdout) \(first.stderr)")
        let exports = home.appendingPathComponent("photomill-exports")
        #expect(first.stdout.contains("exports: \(exports.path)"), "\(first.stdout)")
        #expect(FileManager.default.fileExists(atPath: exports.appendingPathComponent("CACHEDIR.TAG").path))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: exports.appendingPathComponent("thumbs").path).count
                == media.count
        )

        let second = try PhotomillBinary.run(run, in: pictures)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(
            second.stdout.contains("scanned: 0 new, 0 changed, \(media.count) unchanged photos; 0 tasks queued")
                && second.stdout.contains("this run: 0 tasks done"),
            "\(second.stdout)"
        )
        // One file beside the photos after each clean exit: the catalog.
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: pictures.path)) == Set(files + ["photomill.sqlite"])
        )
        let catalog = pictures.appendingPathComponent("photomill.sqlite")
        #expect(try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM photos") == media.count)

        // Exports asked for inside the library are never scanned either (CACHEDIR.TAG).
        let inside = try PhotomillBinary.run(run + ["--exports", "exports"], in: pictures)
        #expect(inside.status == 0)
        let again = try PhotomillBinary.run(run + ["--exports", "exports"], in: pictures)
        #expect(again.stdout.contains("0 new, 0 changed, \(media.count) unchanged"), "\(again.stdout)")
        #expect(try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM photos WHERE path LIKE '%/exports/%'") == 0)
    }
}
