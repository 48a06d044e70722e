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

/// The operator commands (status, failed, retry, reprocess, search, duplicates, export)
/// run as the built binary on a generated set that `photomill run` processed. Expected
/// values come from samples.json, from Python's sqlite3 reading the catalog, and from
/// hashes and distances the tests compute themselves.
@Suite(.serialized, .ownThread) struct OperationsTests {
    let fixture: ProcessedSet

    init() throws { fixture = try ProcessedSet.shared.get() }

    private func run(_ arguments: [String], catalog: URL? = nil) throws -> PhotomillBinary.Outcome {
        try PhotomillBinary.run(arguments + ["--catalog", (catalog ?? fixture.catalog).path])
    }

    private func json(_ outcome: PhotomillBinary.Outcome) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any],
            "\(outcome.stdout)"
        )
    }

    /// Good photos whose metadata task is done (the ones search can find by metadata).
    private func withMetadata() throws -> Set<String> {
        Set(
            try CatalogQuery.rows(
                fixture.catalog,
                "SELECT p.path FROM tasks t JOIN photos p ON p.id = t.photoId WHERE t.kind = 'metadata' AND t.state = 'done'"
            ).map { $0[0] }
        )
    }

    private var broken: [[String: Any]] { fixture.specs.filter { $0["broken"] != nil } }

    // MARK: status

    @Test func statusCountsEveryKindAndStateAndTheWorkers() throws {
        let outcome = try run(["status", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let status = try json(outcome)
        // 15 photos, and the text and empty samples named .jpg: rows whose tasks the scan failed.
        #expect(status["photos"] as? Int == 15 + fixture.scanFailed.count && fixture.scanFailed.count == 2)
        #expect(status["skippedFiles"] as? Int == 1, "samples.json is not media")
        #expect((status["library"] as? [String: Any])?["skipped"] as? [String: Int] == ["not-media": 1])
        #expect(status["mediaTypes"] as? [String: Int] == ["photo": 15])
        let tasks = try #require(status["tasks"] as? [String: [String: Int]])
        let rows = try CatalogQuery.rows(
            fixture.catalog,
            "SELECT kind, state, COUNT(*) FROM tasks GROUP BY kind, state"
        )
        #expect(!rows.isEmpty)
        for row in rows { #expect(tasks[row[0]]?[row[1]] == Int(row[2]), "\(row)") }
        // samples.json: each broken file fails the kinds that decode pixels; hashing reads any bytes.
        let scanFailed = fixture.scanFailed.count
        #expect(
            tasks["thumbnail"]?["failed"] == broken.count + scanFailed
                && tasks["ocr"]?["failed"] == broken.count + scanFailed
                && tasks["similarity"]?["failed"] == broken.count + scanFailed
        )
        #expect(tasks["hash"]?["failed"] == scanFailed && tasks["hash"]?["done"] == 15)
        // Nothing remains, so the ETA is zero (not unknown).
        #expect(status["etaSeconds"] as? Double == 0)
        let throughput = try #require(status["throughput"] as? [String: [String: Any]])
        #expect(Set(throughput.keys) == ["hash", "metadata", "thumbnail", "ocr", "similarity"])
        let workers = try #require(status["workers"] as? [[String: Any]])
        let expected = try CatalogQuery.rows(
            fixture.catalog,
            "SELECT id, host, slots, done, failed, softwareVersion FROM workers ORDER BY id"
        )
        #expect(workers.count == 2 && expected.count == 2)
        for row in expected {
            let worker = try #require(workers.first { $0["id"] as? String == row[0] })
            #expect(worker["host"] as? String == row[1] && worker["slots"] as? Int == Int(row[2]))
            #expect(worker["done"] as? Int == Int(row[3]) && worker["failed"] as? Int == Int(row[4]))
            #expect(worker["softwareVersion"] as? String == row[5] && row[5].hasPrefix("photomill/"), "\(row)")
            #expect(worker["state"] as? String == "gone", "the run is over")
        }
        // Jobs done by the two workers: one per photo for hash+metadata, one for its
        // thumbnail, one for OCR (docs/architecture.md, "The order of work").
        #expect(workers.reduce(0) { $0 + ($1["done"] as! Int) + ($1["failed"] as! Int) } == 45)

        let text = try run(["status"])
        #expect(text.status == 0)
        #expect(text.lines.first?.hasPrefix("17 photos") == true, "\(text.stdout)")
        #expect(text.lines.contains("skipped: 1 file (not-media 1); `photomill skipped` lists them"), "\(text.stdout)")
        let thumbnailLine = try #require(text.lines.first { $0.hasPrefix("thumbnail ") })
        #expect(
            thumbnailLine.split(separator: " ").prefix(5).map(String.init)
                == ["thumbnail", "0", "0", String(tasks["thumbnail"]!["done"]!), String(broken.count + scanFailed)]
        )
    }

    @Test func statusWatchPrintsReportAfterReportWhenNotATerminal() throws {
        let plain = try BackgroundProcess(["status", "--watch", "0.2", "--catalog", fixture.catalog.path])
        #expect(
            eventually(seconds: 30) { plain.stdout.components(separatedBy: "17 photos · ").count > 3 },
            "\(plain.stdout)"
        )
        #expect(!plain.stdout.contains("\u{1B}"), "no escape sequences in a file")
        let lines = try BackgroundProcess(["status", "--watch", "0.2", "--json", "--catalog", fixture.catalog.path])
        #expect(eventually(seconds: 30) { lines.stdout.split(separator: "\n").count >= 3 })
        for line in lines.stdout.split(separator: "\n").dropLast() {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["photos"] as? Int == 17, "\(line)")
        }
        let misuse = try run(["status", "5"])
        #expect(misuse.status == 64 && misuse.stderr.contains("--watch"))
    }

    // MARK: failed

    @Test func failedListsEachFailureWithItsCauseAndFilters() throws {
        let outcome = try run(["failed", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let listed = try PhotomillBinary.jsonLines(outcome)
        let expected = try CatalogQuery.rows(
            fixture.catalog,
            """
            SELECT p.path, t.kind, t.errorClass, t.attempts,
                (SELECT worker FROM attempts a WHERE a.photoId = t.photoId AND a.kind = t.kind ORDER BY a.id DESC LIMIT 1)
            FROM tasks t JOIN photos p ON p.id = t.photoId WHERE t.state = 'failed'
            """
        )
        #expect(!expected.isEmpty)
        let key = { (o: [String: Any]) in
            ["\(o["path"]!)", "\(o["kind"]!)", "\(o["errorClass"]!)", "\(o["attempts"]!)", "\(o["worker"] ?? "")"]
        }
        #expect(Set(listed.map(key)) == Set(expected), "\(listed)")
        for failure in listed {
            #expect(
                (failure["message"] as? String)?.contains(failure["path"] as! String) == true,
                "the message names the file"
            )
            #expect((failure["failedAt"] as? String)?.hasPrefix("20") == true)
        }
        // Every broken sample's thumbnail failed, classified as samples.json says it is broken.
        for spec in broken {
            let path = fixture.path(spec["file"] as! String)
            let thumbnail = listed.first { $0["path"] as? String == path && $0["kind"] as? String == "thumbnail" }
            #expect(thumbnail?["errorClass"] as? String == "corrupt", "\(path): \(spec["broken"] ?? "")")
        }

        let ocr = try PhotomillBinary.jsonLines(try run(["failed", "--json", "--kind", "ocr"]))
        #expect(
            ocr.count == expected.filter { $0[1] == "ocr" }.count && ocr.allSatisfy { $0["kind"] as? String == "ocr" }
        )
        let corrupt = try PhotomillBinary.jsonLines(try run(["failed", "--json", "--class", "corrupt"]))
        #expect(corrupt.count == expected.filter { $0[2] == "corrupt" }.count && !corrupt.isEmpty)
        let garbled = try PhotomillBinary.jsonLines(
            try run(["failed", "--json", "--path", "*/broken_garbled_*", "--kind", "thumbnail,ocr"])
        )
        #expect(garbled.count == 2 && garbled.allSatisfy { ($0["path"] as! String).contains("/broken_garbled_") })

        let text = try run(["failed"])
        #expect(text.lines.last?.hasPrefix("\(expected.count) failed tasks") == true, "\(text.stdout)")

        for (arguments, flag) in [
            (["--kind", "thumbnails"], "--kind"), (["--class", "Corrupt!"], "--class"),
            (["--class", "corupt"], "--class"), (["--path", "photos/*.jpg"], "--path"),
        ] {
            let bad = try run(["failed"] + arguments)
            #expect(bad.status == 64, "\(arguments)")
            #expect(bad.stderr.contains(flag) && bad.stderr.contains(arguments[1]), "\(bad.stderr)")
        }
    }

    // MARK: retry and reprocess

    @Test func retryMovesTheMatchingFailuresBackToPending() throws {
        let catalog = try fixture.catalogCopy()
        let failed = try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE state = 'failed'")
        let dry = try run(["retry", "--dry-run"], catalog: catalog)
        #expect(dry.status == 0 && dry.stdout.hasPrefix("would retry \(failed) failed tasks"), "\(dry.stdout)")
        #expect(try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE state = 'failed'") == failed)

        let chosen = try CatalogQuery.rows(
            catalog,
            "SELECT photoId FROM tasks WHERE state = 'failed' AND kind = 'thumbnail' AND errorClass = 'corrupt' ORDER BY photoId"
        ).map { $0[0] }
        #expect(!chosen.isEmpty)
        let retried = try run(["retry", "--kind", "thumbnail", "--class", "corrupt", "--json"], catalog: catalog)
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(try json(retried)["tasks"] as? Int == chosen.count)
        #expect(
            try CatalogQuery.rows(
                catalog,
                "SELECT photoId FROM tasks WHERE state = 'pending' AND kind = 'thumbnail' AND attempts = 0 ORDER BY photoId"
            ).map { $0[0] } == chosen
        )
        #expect(
            try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE state = 'failed'") == failed
                - chosen.count
        )
        #expect(
            try CatalogQuery.rows(catalog, "SELECT command, tasks FROM requeues") == [["retry", String(chosen.count)]]
        )

        let missing = try PhotomillBinary.run(["retry", "--catalog", catalog.path + ".typo"])
        #expect(
            missing.status == 66 && !FileManager.default.fileExists(atPath: catalog.path + ".typo"),
            "never creates a catalog"
        )
    }

    @Test func reprocessOutdatedRequeuesExactlyTheResultsOfAnotherRecipe() throws {
        let catalog = try fixture.catalogCopy()
        // Straight after a run with the default flags, nothing is outdated: the CLI's
        // recipes are the ones the workers recorded.
        let none = try run(["reprocess", "--outdated", "--json"], catalog: catalog)
        #expect(none.status == 0, "\(none.stderr)")
        #expect(try json(none)["tasks"] as? Int == 0, "\(none.stdout)")

        let aged = try CatalogQuery.rows(
            catalog,
            "SELECT photoId FROM tasks WHERE kind = 'thumbnail' AND state = 'done' ORDER BY photoId LIMIT 2"
        ).map { $0[0] }
        try python(
            catalog,
            "UPDATE tasks SET recipe = 'thumbnail/0 size=128 q=80' WHERE kind = 'thumbnail' AND photoId IN (\(aged.joined(separator: ",")))"
        )
        let requeued = try run(["reprocess", "--outdated"], catalog: catalog)
        #expect(requeued.stdout.hasPrefix("requeued 2 outdated results (thumbnail 2)"), "\(requeued.stdout)")
        #expect(
            try CatalogQuery.rows(catalog, "SELECT photoId FROM tasks WHERE state = 'pending' ORDER BY photoId").map {
                $0[0]
            } == aged
        )

        let done = try CatalogQuery.count(
            catalog,
            "SELECT COUNT(*) FROM tasks WHERE kind = 'thumbnail' AND state = 'done'"
        )
        let bigger = try run(
            ["reprocess", "--outdated", "--thumbnail-size", "512", "--dry-run", "--json"],
            catalog: catalog
        )
        // The similarity hash is made from the thumbnail's picture: its recipe names the size too.
        let hashed = try CatalogQuery.count(
            catalog,
            "SELECT COUNT(*) FROM tasks WHERE kind = 'similarity' AND state = 'done'"
        )
        #expect(try json(bigger)["byKind"] as? [String: Int] == ["thumbnail": done, "similarity": hashed])
        let scans = try CatalogQuery.count(
            catalog,
            "SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId WHERE t.kind = 'ocr' AND t.state = 'done' AND p.path GLOB '*/SCAN_*'"
        )
        #expect(scans >= 1)
        let all = try run(["reprocess", "--all", "--kind", "ocr", "--path", "*/SCAN_*", "--json"], catalog: catalog)
        #expect(try json(all)["tasks"] as? Int == scans)

        #expect(try run(["reprocess"], catalog: catalog).status == 64)
        #expect(try run(["reprocess", "--all", "--outdated"], catalog: catalog).status == 64)
    }

    private func python(_ catalog: URL, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()",
            catalog.path, sql,
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    // MARK: search, duplicates, export

    @Test func searchFindsOCRTextAndFiltersByCameraDateAndPlace() throws {
        // A word printed on a page (samples.json) that OCR read back (the catalog).
        let pages = try CatalogQuery.rows(
            fixture.catalog,
            "SELECT p.path, replace(o.text, char(10), ' ') FROM ocr o JOIN photos p ON p.id = o.photoId WHERE o.text != ''"
        )
        let tokens = { (text: String) in Set(text.lowercased().split { !$0.isLetter }.map(String.init)) }
        let page = try #require(fixture.specs.first { $0["text"] != nil })
        let recognised = tokens(pages.first { $0[0] == fixture.path(page["file"] as! String) }?[1] ?? "")
        let word = try #require(
            tokens(page["text"] as! String).intersection(recognised).filter { $0.count >= 5 }.sorted().first
        )
        let expected = Set(pages.filter { tokens($0[1]).contains(word) }.map { $0[0] })
        let found = try PhotomillBinary.jsonLines(try run(["search", word.uppercased(), "--json"]))
        #expect(
            Set(found.map { $0["path"] as! String }) == expected
                && expected.contains(fixture.path(page["file"] as! String))
        )
        #expect(found.allSatisfy { ($0["snippet"] as? String)?.lowercased().contains("[\(word)]") == true })

        let metadataDone = try withMetadata()
        func paths(where keep: ([String: Any]) -> Bool) -> Set<String> {
            var paths = Set(
                fixture.specs.filter { keep($0["exif"] as? [String: Any] ?? [:]) }.map {
                    fixture.path($0["file"] as! String)
                }
            )
            if paths.contains(fixture.path("IMG_0001.jpg")) { paths.insert(fixture.path("copy-of-0001.jpg")) }
            return paths.intersection(metadataDone)
        }
        func search(_ arguments: [String]) throws -> Set<String> {
            let outcome = try run(["search", "--json"] + arguments)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            return Set(try PhotomillBinary.jsonLines(outcome).map { $0["path"] as! String })
        }
        let model = try #require((fixture.specs.first?["exif"] as? [String: Any])?["model"] as? String)
        let camera = try search(["--camera", model.lowercased()])
        #expect(
            !camera.isEmpty
                && camera == paths { ($0["model"] as? String)?.lowercased().contains(model.lowercased()) == true }
        )

        let day = { (exif: [String: Any]) in
            (exif["dateTimeOriginal"] as? String).map { String($0.prefix(10)).replacingOccurrences(of: ":", with: "-") }
        }
        let dated = try search(["--from", "2012-01-01", "--to", "2015-12-31"])
        #expect(!dated.isEmpty && dated == paths { day($0).map { $0 >= "2012-01-01" && $0 <= "2015-12-31" } ?? false })

        let berlin = (52.52, 13.40)
        let near = try search(["--near", "52.52,13.40,25"])
        #expect(
            !near.isEmpty
                && near
                    == paths { exif in
                        guard let lat = exif["gpsLatitude"] as? Double, let lon = exif["gpsLongitude"] as? Double else {
                            return false
                        }
                        return haversineKm(berlin, (lat, lon)) <= 25
                    }
        )

        for (arguments, flag) in [
            ([], "TEXT"), (["--from", "2019-02-30"], "--from"), (["--to", "yesterday"], "--to"),
            (["--near", "52.5,13.4"], "--near"), (["--near", "95,13.4,5"], "--near"),
            (["--from", "2020-01-01", "--to", "2019-01-01"], "--from"),
        ] {
            let bad = try run(["search"] + arguments)
            #expect(bad.status == 64 && bad.stderr.contains(flag), "\(arguments): \(bad.stderr)")
        }
    }

    @Test func duplicatesAreTheFilesWithTheSameBytes() throws {
        // MD5 of every file, computed here with Python's hashlib.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            """
            import hashlib, os, sys
            for name in sorted(os.listdir(sys.argv[1])):
                if name != 'samples.json':
                    path = os.path.join(sys.argv[1], name)
                    print(hashlib.md5(open(path, 'rb').read()).hexdigest() + '\\t' + path)
            """, fixture.photos.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let listing = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var byHash: [String: Set<String>] = [:]
        for line in listing.split(separator: "\n") {
            let parts = line.split(separator: "\t").map(String.init)
            byHash[parts[0], default: []].insert(parts[1])
        }
        let expected = Set(byHash.filter { $0.value.count > 1 }.map { $0.key })
        #expect(expected.count == 1, "the copy of IMG_0001")

        let outcome = try run(["duplicates", "--json"])
        #expect(outcome.status == 0)
        let groups = try PhotomillBinary.jsonLines(outcome)
        #expect(Set(groups.map { $0["md5"] as! String }) == expected)
        for group in groups { #expect(Set(group["paths"] as! [String]) == byHash[group["md5"] as! String]) }
        #expect(
            try run(["duplicates"]).lines.last
                == "1 groups; 1 redundant files, \(groups.first?["size"] as? Int ?? -1) bytes"
        )
    }

    @Test func exportRebuildsFromTheCatalogWithoutGPSAndWithTheText() throws {
        let out = try temporaryDirectory().appendingPathComponent("exports")
        let textFile = out.appendingPathComponent("all-text.txt")
        let outcome = try run(["export", out.path, "--strip-gps", "--ocr-text", textFile.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let md5s = Set(
            try CatalogQuery.rows(fixture.catalog, "SELECT DISTINCT md5 FROM photos WHERE md5 IS NOT NULL").map {
                $0[0]
            }
        )
        let plists = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("metadata").path)
        #expect(Set(plists) == Set(md5s.map { $0 + ".plist" }))
        for name in plists {
            let data = try Data(contentsOf: out.appendingPathComponent("metadata/\(name)"))
            let values = try #require(
                try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
            )
            #expect(values["gpsLatitude"] == nil && values["gpsLongitude"] == nil, "\(name)")
        }
        let manifest = try PropertyListSerialization.propertyList(
            from: Data(contentsOf: out.appendingPathComponent("manifest.plist")),
            format: nil
        )
        #expect((manifest as? [String: Any])?["gpsStripped"] as? Bool == true)

        // Without --strip-gps the location is there, as written into the file.
        let full = try temporaryDirectory()
        #expect(try run(["export", full.path]).status == 0)
        let md5 = try #require(
            try CatalogQuery.rows(
                fixture.catalog,
                "SELECT md5 FROM photos WHERE path = '\(fixture.path("IMG_0001.jpg"))'"
            ).first?.first
        )
        let plist = try PropertyListSerialization.propertyList(
            from: Data(contentsOf: full.appendingPathComponent("metadata/\(md5).plist")),
            format: nil
        )
        let exif = try #require(
            fixture.specs.first { $0["file"] as? String == "IMG_0001.jpg" }?["exif"] as? [String: Any]
        )
        let latitude = try #require((plist as? [String: Any])?["gpsLatitude"] as? Double)
        #expect(abs(latitude - (exif["gpsLatitude"] as! Double)) < 1e-5)

        // The text file: every photo with recognised text, under its path.
        let text = try String(contentsOf: textFile, encoding: .utf8)
        let pages = try CatalogQuery.rows(
            fixture.catalog,
            "SELECT p.path, replace(o.text, char(10), ' ') FROM ocr o JOIN photos p ON p.id = o.photoId WHERE o.text != ''"
        )
        #expect(!pages.isEmpty && text.components(separatedBy: "==> ").count - 1 == pages.count)
        for page in pages {
            #expect(
                text.contains("==> \(page[0]) <==\n\(page[1].split(separator: " ").prefix(3).joined(separator: " "))"),
                "\(page[0])"
            )
        }

        let refused = try run(["export", "/proc/photomill-no"])
        #expect(refused.status != 0 && refused.stderr.contains("/proc/photomill-no"))
    }

    // MARK: catalogs the commands must refuse

    @Test func everyCommandRefusesAMissingCatalogAndOneOfANewerSchema() throws {
        let newer = try fixture.catalogCopy()
        try python(newer, "INSERT INTO grdb_migrations (identifier) VALUES ('v9-from-the-future')")
        let exportDir = try temporaryDirectory().path
        let commands = [
            ["status"], ["failed"], ["retry"], ["reprocess", "--all"], ["search", "word"], ["duplicates"],
            ["export", exportDir],
        ]
        for command in commands {
            let refused = try run(command, catalog: newer)
            #expect(refused.status != 0 && refused.stderr.contains("newer photomill"), "\(command): \(refused.stderr)")
            let missing = try run(command, catalog: URL(fileURLWithPath: "/nonexistent/photomill.sqlite"))
            #expect(
                missing.status == 66 && missing.stderr.contains("/nonexistent/photomill.sqlite")
                    && missing.stderr.contains("photomill run"),
                "\(command): \(missing.stderr)"
            )
        }
    }
}
