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

/// The similarity kind end to end with the real binary: `run` hashes a library of three
/// corpus photos, copies of them made by the `vips` command (halved, JPEG quality 40, WebP,
/// an exact copy) and a broken file; `similar`, `search --like`, `inspect`, the exports,
/// `failed` and `reprocess` are checked against the catalog read by Python's sqlite3, the
/// files' sizes and `vipsheader`'s pixel sizes, and distances counted here from the stored
/// bits. Which photos belong together is known from how the library was made.
@Suite(
    .ownThread,
    .serialized,
    .enabled(
        if: Corpus.isAvailable && Tool.allAvailable("vips", "vipsheader"),
        "needs ../shared/corpus and the vips command"
    )
)
struct SimilarCommandTests {
    static let library: Result<Library, any Error> = Result { try Library() }

    final class Library: Sendable {
        let directory: URL
        let photos: URL
        let catalog: URL
        let exports: URL
        /// Each group as made: the source first.
        let canon: [String]
        let nikon: [String]
        let alone: String
        let broken: String

        init() throws {
            let directory = try temporaryDirectory()
            let photos = directory.appendingPathComponent("photos")
            self.directory = directory
            self.photos = photos
            catalog = directory.appendingPathComponent("catalog.sqlite")
            exports = directory.appendingPathComponent("exports")
            try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
            let corpus = Corpus.root.appendingPathComponent("photos")
            func path(_ name: String) -> String { photos.appendingPathComponent(name).path }
            // Upright copies first, so that every variant is made from the same pixels.
            try Tool.output(
                "vips",
                ["autorot", corpus.appendingPathComponent("Canon_40D.jpg").path, path("canon-a.jpg")]
            )
            try FileManager.default.copyItem(atPath: path("canon-a.jpg"), toPath: path("canon-b-copy.jpg"))
            try Tool.output("vips", ["resize", path("canon-a.jpg"), path("canon-half.jpg"), "0.5"])
            try Tool.output("vips", ["copy", path("canon-a.jpg"), path("canon-q40.jpg[Q=40]")])
            try Tool.output("vips", ["copy", path("canon-a.jpg"), path("canon.webp")])
            try Tool.output("vips", ["autorot", corpus.appendingPathComponent("DSCN0010.jpg").path, path("nikon.jpg")])
            try Tool.output("vips", ["resize", path("nikon.jpg"), path("nikon-small.png"), "0.3"])
            try Tool.output("vips", ["autorot", corpus.appendingPathComponent("jolla.jpg").path, path("jolla.jpg")])
            // A JPEG cut short in its first segment: recognised as a JPEG, no picture in it.
            try Data(try Data(contentsOf: URL(fileURLWithPath: path("jolla.jpg"))).prefix(300)).write(
                to: URL(fileURLWithPath: path("broken.jpg"))
            )
            canon = ["canon-a.jpg", "canon-b-copy.jpg", "canon-half.jpg", "canon-q40.jpg", "canon.webp"].map(path)
            nikon = ["nikon.jpg", "nikon-small.png"].map(path)
            alone = path("jolla.jpg")
            broken = path("broken.jpg")
            let run = try PhotomillBinary.run([
                "run", photos.path, "--workers", "2", "--catalog", catalog.path, "--exports", exports.path,
            ])
            guard run.status == 1, run.stdout.contains("9 new") else {
                throw ProcessedSet.SetupError("run: \(run.status) \(run.stdout) \(run.stderr)")
            }
        }

        /// Every stored hash, by path, read by Python's sqlite3.
        func hashes() throws -> [String: UInt64] {
            Dictionary(
                uniqueKeysWithValues: try CatalogQuery.rows(
                    catalog,
                    "SELECT p.path, s.hash FROM photos p JOIN similarity s ON s.photoId = p.id"
                )
                .map { ($0[0], UInt64(bitPattern: Int64($0[1])!)) }
            )
        }
    }

    static func distance(_ a: UInt64, _ b: UInt64) -> Int { (a ^ b).nonzeroBitCount }

    /// Width × height by `vipsheader`, not by photomill.
    static func pixels(_ path: String) throws -> Int {
        let width = Int(
            try Tool.output("vipsheader", ["-f", "width", path]).trimmingCharacters(in: .whitespacesAndNewlines)
        )!
        let height = Int(
            try Tool.output("vipsheader", ["-f", "height", path]).trimmingCharacters(in: .whitespacesAndNewlines)
        )!
        return width * height
    }

    @Test func similarGroupsTheCopiesBestCopyFirstWithTheirDistances() throws {
        let library = try Self.library.get()
        let hashes = try library.hashes()
        #expect(hashes.count == 8, "every photo but the broken one has a hash: \(hashes.keys.sorted())")

        let outcome = try PhotomillBinary.run(["similar", "--catalog", library.catalog.path, "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let groups = try PhotomillBinary.jsonLines(outcome).map { $0["photos"] as? [[String: Any]] ?? [] }
        #expect(
            groups.map { Set($0.compactMap { $0["path"] as? String }) } == [Set(library.canon), Set(library.nikon)],
            "the copies of each picture, largest group first; jolla.jpg in none"
        )
        for group in groups {
            let paths = group.compactMap { $0["path"] as? String }
            // The best copy: the most pixels, then the largest file, then (dates equal) the path.
            let expected = try paths.map {
                (
                    path: $0, pixels: try Self.pixels($0),
                    size: try FileManager.default.attributesOfItem(atPath: $0)[.size] as! Int
                )
            }
            .sorted { ($1.pixels, $1.size, $0.path) < ($0.pixels, $0.size, $1.path) }[0].path
            #expect(paths[0] == expected && group[0]["best"] as? Bool == true)
            for photo in group {
                let path = photo["path"] as! String
                #expect(photo["distance"] as? Int == Self.distance(hashes[path]!, hashes[expected]!), "\(path)")
                #expect(photo["perceptualHash"] as? String == String(format: "%016llx", hashes[path]!))
                #expect(
                    photo["size"] as? Int == (try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int)
                )
            }
            let distances = group.dropFirst().map { $0["distance"] as? Int ?? -1 }
            #expect(distances == distances.sorted())
        }
        let copy = try #require(groups.first?.first { $0["path"] as? String == library.canon[1] })
        #expect(copy["exactCopyOf"] as? String == library.canon[0], "the exact copy is named as such")

        // Distance 0: exactly the photos of equal hashes, as the stored bits group them.
        let zero = try PhotomillBinary.jsonLines(
            try PhotomillBinary.run(["similar", "--catalog", library.catalog.path, "--json", "--distance", "0"])
        )
        let equal = Dictionary(grouping: hashes.keys, by: { hashes[$0]! }).values.filter { $0.count > 1 }.map(Set.init)
        #expect(
            Set(zero.map { Set(($0["photos"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }) })
                == Set(equal)
        )

        // A glob: only the Nikon pictures; the text form names the best copy and the copies.
        let nikon = try PhotomillBinary.run(["similar", "--catalog", library.catalog.path, "--path", "*/nikon*"])
        #expect(
            nikon.status == 0 && nikon.stdout.contains("2 alike; best copy \(library.nikon[0])")
                && !nikon.stdout.contains("canon"),
            "\(nikon.stdout)"
        )
        let text = try PhotomillBinary.run(["similar", "--catalog", library.catalog.path])
        #expect(
            text.stdout.contains("exact copy of \(library.canon[0])")
                && text.stdout.contains("2 groups; 5 photos have a better copy"),
            "\(text.stdout)"
        )

        let tooFar = try PhotomillBinary.run(["similar", "--catalog", library.catalog.path, "--distance", "17"])
        #expect(tooFar.status == 64 && tooFar.stderr.contains("--distance must be between 0 and 16"))
    }

    @Test func searchLikeFindsTheCopiesOfAFileOutsideTheCatalog() throws {
        let library = try Self.library.get()
        let outside = try temporaryDirectory()
        let query = outside.appendingPathComponent("nikon-brighter.jpg").path
        try Tool.output("vips", ["linear", library.nikon[0], query, "1.1", "0"])
        let inspect = try PhotomillBinary.jsonLines(
            try PhotomillBinary.run(["inspect", "--json", "--kinds", "similarity", query])
        )
        let ownHex = try #require(inspect.first?["perceptualHash"] as? String)
        let own = try #require(UInt64(ownHex, radix: 16))
        let hashes = try library.hashes()

        let outcome = try PhotomillBinary.run(["search", "--catalog", library.catalog.path, "--like", query, "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let found = try PhotomillBinary.jsonLines(outcome)
        let expected = hashes.filter { Self.distance($0.value, own) <= 10 }
        #expect(
            Set(found.compactMap { $0["path"] as? String }) == Set(expected.keys)
                && Set(expected.keys) == Set(library.nikon),
            "\(found)"
        )
        for photo in found {
            #expect(photo["distance"] as? Int == Self.distance(hashes[photo["path"] as! String]!, own))
        }
        let text = try PhotomillBinary.run(["search", "--catalog", library.catalog.path, "--like", query])
        #expect(
            text.stdout.contains("2 photos like \(query) (hash \(String(format: "%016llx", own)), distance 10)"),
            "\(text.stdout)"
        )

        let missing = try PhotomillBinary.run([
            "search", "--catalog", library.catalog.path, "--like", outside.appendingPathComponent("none.jpg").path,
        ])
        #expect(missing.status == 66 && missing.stderr.contains("none.jpg"))
        let mixed = try PhotomillBinary.run([
            "search", "--catalog", library.catalog.path, "--like", query, "--camera", "Nikon",
        ])
        #expect(mixed.status == 64)
        let notAPhoto = try PhotomillBinary.run(["search", "--catalog", library.catalog.path, "--like", library.broken])
        #expect(notAPhoto.status == 1 && notAPhoto.stderr.contains("broken.jpg"))
    }

    /// The hash reaches the exports (`perceptualHash`, read by plistlib) and `inspect`; a
    /// file with no picture fails the kind by name; `reprocess --outdated` goes by the
    /// kind's recipe (its version, and the picture size it was made at).
    @Test func hashIsExportedInspectedFailedAndReprocessedAsItsOwnTask() throws {
        let library = try Self.library.get()
        let hashes = try library.hashes()
        let md5 = try #require(
            CatalogQuery.rows(library.catalog, "SELECT md5 FROM photos WHERE path = '\(library.alone)'").first?.first
        )
        let plist = library.exports.appendingPathComponent("metadata/\(md5).plist").path
        let exported = try runScript(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import plistlib, sys; print(plistlib.load(open(sys.argv[1], 'rb'))['perceptualHash'])", plist,
            ]
        )
        #expect(
            exported.output.trimmingCharacters(in: .whitespacesAndNewlines)
                == String(format: "%016llx", hashes[library.alone]!)
        )
        // The kinds of the thumbnail's job: with OCR, the thumbnail's picture is shrunk from the
        // OCR's, a few pixels differ and so may a bit (docs/processing.md, "similarity").
        let inspect = try PhotomillBinary.jsonLines(
            try PhotomillBinary.run(["inspect", "--json", "--kinds", "thumbnail,similarity", library.alone])
        )
        #expect(inspect.first?["perceptualHash"] as? String == String(format: "%016llx", hashes[library.alone]!))

        let failed = try PhotomillBinary.jsonLines(
            try PhotomillBinary.run(["failed", "--catalog", library.catalog.path, "--kind", "similarity", "--json"])
        )
        #expect(
            failed.map { $0["path"] as? String } == [library.broken]
                && failed.first?["errorClass"] as? String == "corrupt",
            "\(failed)"
        )

        // After `run`'s clean exit the catalog is one file.
        let copy = try temporaryDirectory().appendingPathComponent("catalog.sqlite")
        try FileManager.default.copyItem(at: library.catalog, to: copy)
        try runPython(
            copy,
            "UPDATE tasks SET recipe = 'similarity/0 side=256' WHERE kind = 'similarity' AND photoId = (SELECT id FROM photos WHERE path = '\(library.alone)')"
        )
        let outdated = try PhotomillBinary.run([
            "reprocess", "--catalog", copy.path, "--outdated", "--kind", "similarity", "--json",
        ])
        #expect(
            outdated.status == 0 && outdated.stdout.contains("\"similarity\":1"),
            "\(outdated.stdout) \(outdated.stderr)"
        )
        #expect(
            try CatalogQuery.rows(
                copy,
                "SELECT p.path FROM tasks t JOIN photos p ON p.id = t.photoId WHERE t.kind = 'similarity' AND t.state = 'pending'"
            )
            .map { $0[0] } == [library.alone]
        )
        let resized = try PhotomillBinary.run([
            "reprocess", "--catalog", copy.path, "--outdated", "--thumbnail-size", "512", "--dry-run", "--json",
        ])
        #expect(
            resized.stdout.contains("\"similarity\":7") && resized.stdout.contains("\"thumbnail\":8"),
            "\(resized.stdout)"
        )
    }
}

private func runPython(_ catalog: URL, _ sql: String) throws {
    let run = try runScript(
        "/usr/bin/env",
        [
            "python3", "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()",
            catalog.path, sql,
        ]
    )
    #expect(run.status == 0, "\(run.output)")
}
