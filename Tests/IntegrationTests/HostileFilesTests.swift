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

/// Files that are not what they seem (issue 29, items 4 and 5): a photo and a sidecar
/// replaced by FIFOs after the scan, and sidecars built to be slow or to be read in part.
/// Nothing blocks, nothing is read in part, every refusal names the file and what it is,
/// and SIGTERM still stops the coordinator. Every wait is bounded: before the fix these
/// processes hung for good.
@Suite(.serialized, .ownThread) struct HostileFilesTests {
    /// A library of three photos (two photos and a scan), a sidecar each for the photos, scanned by a coordinator with
    /// no worker yet; then a.jpg and b.jpg's sidecar become FIFOs.
    private func fifoLibrary() throws -> (
        folder: URL, photos: URL, catalog: URL, coordinator: BackgroundProcess, endpoint: String
    ) {
        let folder = try temporaryDirectory()
        let photos = folder.appendingPathComponent("photos")
        let written = try PhotomillBinary.run([
            "samples", photos.path, "--count", "3", "--seed", "4", "--photo-size", "160x120",
        ])
        try #require(written.status == 0, "\(written.stderr)")
        try FileManager.default.removeItem(at: photos.appendingPathComponent("samples.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: photos.path).count == 3)
        for name in ["IMG_0001.jpg", "IMG_0002.jpg"] {
            try Tool.output(
                "exiftool",
                ["-q", "-o", photos.appendingPathComponent(name + ".xmp").path, "-XMP-dc:Title=\(name)"]
            )
        }
        let catalog = folder.appendingPathComponent("catalog.sqlite")
        let endpoint = "ipc://\(folder.path)/c.sock"
        // Nothing watched (--max-watches 0): the FIFOs are met by the reads, not by the
        // watcher, which would skip them unopened and mark the photo missing (issue 26).
        let coordinator = try BackgroundProcess([
            "coordinator", "--bind", endpoint, "--catalog", catalog.path, "--no-exports", "--no-http",
            "--kinds", "hash,metadata", "--max-watches", "0", photos.path,
        ])
        #expect(
            eventually(seconds: 60) { (try? CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks")) == 6 },
            "\(coordinator.stderr)"
        )
        for file in ["IMG_0001.jpg", "IMG_0002.jpg.xmp"] {
            let path = photos.appendingPathComponent(file).path
            try FileManager.default.removeItem(atPath: path)
            #expect(mkfifo(path, 0o644) == 0)
        }
        return (folder, photos, catalog, coordinator, endpoint)
    }

    @Test func aCoordinatorFeedingBytesRefusesFIFOsByNameAndStillStopsOnSIGTERM() throws {
        let library = try fifoLibrary()
        let worker = try BackgroundProcess([
            "worker", "--connect", library.endpoint, "--slots", "1", "--kinds", "hash,metadata",
        ])
        let settled = eventually(seconds: 60) {
            (try? CatalogQuery.count(library.catalog, "SELECT COUNT(*) FROM tasks WHERE state IN ('done', 'failed')"))
                == 6
        }
        #expect(
            settled,
            "tasks: \((try? CatalogQuery.rows(library.catalog, "SELECT kind, state, errorMessage FROM tasks")) ?? [])\n\(library.coordinator.stderr)"
        )
        let failed = try CatalogQuery.rows(
            library.catalog,
            """
            SELECT p.path, t.kind, t.errorClass, t.errorMessage FROM tasks t JOIN photos p ON p.id = t.photoId
            WHERE t.errorMessage IS NOT NULL ORDER BY p.path, t.kind
            """
        )
        let photo = library.photos.appendingPathComponent("IMG_0001.jpg").path
        let sidecar = library.photos.appendingPathComponent("IMG_0002.jpg.xmp").path
        #expect(
            failed.contains { $0[0] == photo && $0[3].contains("it is a FIFO (named pipe), not a regular file") },
            "\(failed)"
        )
        #expect(
            failed.contains { $0[1] == "metadata" && $0[3].contains(sidecar) && $0[3].contains("it is a FIFO") },
            "\(failed)"
        )
        #expect(
            try CatalogQuery.count(
                library.catalog,
                "SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path LIKE '%SCAN_0003.png' AND t.state = 'done'"
            ) == 2
        )
        worker.signal(SIGTERM)
        library.coordinator.signal(SIGTERM)
        #expect(library.coordinator.wait(seconds: 30) == 0, "SIGTERM stops it: \(library.coordinator.stderr)")
        #expect(worker.wait(seconds: 30) != nil)
    }

    @Test func aWorkerThatReadsFilesAndInspectRefuseFIFOsByName() throws {
        let library = try fifoLibrary()
        let worker = try BackgroundProcess([
            "worker", "--connect", library.endpoint, "--slots", "1", "--kinds", "hash,metadata",
            "--root", library.photos.path,
        ])
        let sidecar = library.photos.appendingPathComponent("IMG_0002.jpg.xmp").path
        let refused = eventually(seconds: 60) {
            ((try? CatalogQuery.rows(
                library.catalog,
                "SELECT errorMessage FROM attempts WHERE errorMessage LIKE '%FIFO%'"
            )) ?? []).count > 0
        }
        #expect(
            refused,
            "\((try? CatalogQuery.rows(library.catalog, "SELECT kind, outcome, errorMessage FROM attempts")) ?? [])"
        )
        let messages = try CatalogQuery.rows(
            library.catalog,
            "SELECT errorMessage FROM attempts WHERE errorMessage IS NOT NULL"
        ).map { $0[0] }
        #expect(
            messages.contains {
                $0.contains(sidecar)
                    && $0.contains("cannot read the XMP sidecar: it is a FIFO (named pipe), not a regular file")
            },
            "\(messages)"
        )
        #expect(!messages.contains { $0.contains("permission") })
        worker.signal(SIGTERM)
        library.coordinator.signal(SIGTERM)
        #expect(library.coordinator.wait(seconds: 30) == 0, "\(library.coordinator.stderr)")
        #expect(worker.wait(seconds: 30) != nil)

        // inspect of the FIFO photo itself: refused at once, by name.
        let fifo = library.photos.appendingPathComponent("IMG_0001.jpg").path
        let inspect = try BackgroundProcess(["inspect", "--json", "--kinds", "hash", fifo])
        #expect(inspect.wait(seconds: 30) == 1, "inspect of a FIFO ends")
    }

    /// The largest sidecar photomill reads (16 MiB of keywords, Python writes it) and one
    /// that declares an entity: the first is read whole, in seconds (it took more than ten
    /// minutes); the second fails the metadata naming the sidecar (it cut the title short).
    @Test func sidecarsBuiltToBeSlowOrReadInPartAreReadWholeOrRefused() throws {
        let folder = try temporaryDirectory()
        let written = try PhotomillBinary.run([
            "samples", folder.path, "--count", "2", "--seed", "5", "--photo-size", "160x120",
        ])
        try #require(written.status == 0, "\(written.stderr)")
        let big = folder.appendingPathComponent("IMG_0001.jpg")
        let entity = folder.appendingPathComponent("IMG_0002.jpg")
        let made = try runScript(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import sys
                head = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                        '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:subject><rdf:Bag>\\n')
                tail = '</rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta>\\n'
                items, size, n = [], len(head) + len(tail), 0
                while True:
                    item = '<rdf:li>k%d</rdf:li>\\n' % n
                    if size + len(item) > 16 * 1024 * 1024: break
                    items.append(item); size += len(item); n += 1
                open(sys.argv[1], 'w').write(head + ''.join(items) + tail)
                open(sys.argv[2], 'w').write('<?xml version="1.0"?>\\n<!DOCTYPE x [<!ENTITY who "the harbour master">]>\\n'
                    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                    '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Boats of &who; at dawn</dc:title>'
                    '</rdf:Description></rdf:RDF></x:xmpmeta>\\n')
                print(n)
                """, big.path + ".xmp", entity.path + ".xmp",
            ]
        )
        let keywords = try #require(Int(made.output.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(try FileManager.default.attributesOfItem(atPath: big.path + ".xmp")[.size] as? Int ?? 0 > 16_000_000)

        let started = Date()
        let inspect = try BackgroundProcess(["inspect", "--json", "--kinds", "metadata", big.path])
        let status = inspect.wait(seconds: 120)
        let seconds = Date().timeIntervalSince(started)
        #expect(
            status == 0,
            "inspect of a photo with a 16 MiB sidecar: \(status.map(String.init) ?? "still running after 120 s")"
        )
        print("inspect with a 16 MiB sidecar (\(keywords) keywords): \(String(format: "%.1f", seconds)) s, debug build")

        let json = try PhotomillBinary.run(["inspect", "--json", "--kinds", "metadata", big.path, entity.path])
        let lines = try PhotomillBinary.jsonLines(json)
        #expect(((lines.first?["metadata"] as? [String: Any])?["keywords"] as? [String])?.count == keywords)
        #expect(json.status == 1)
        let failure = (lines.last?["errors"] as? [String: Any])?["metadata"] as? [String: Any]
        #expect(failure?["class"] as? String == "corrupt")
        #expect(
            (failure?["message"] as? String)?.contains(entity.path + ".xmp") == true
                && (failure?["message"] as? String)?.contains("DOCTYPE") == true,
            "\(String(describing: failure))"
        )
    }
}
