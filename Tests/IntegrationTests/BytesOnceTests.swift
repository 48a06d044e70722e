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

/// PROTOCOL.md, "Each file's bytes once" (issue 31), against the built binary: workers fed
/// bytes (no --root) get a photo's hash, metadata and thumbnail in the JOB that sends its
/// bytes, OCR alone; the bytes a killed worker held are sent again, a file changed between
/// its JOB and its OCR JOB is done again from the new bytes. The books are read with
/// Python's sqlite3, the files' sizes and digests with Python's os and hashlib, the bytes
/// sent from the coordinator's /metrics.
// Not serialized: each test has its own processes, port and catalog.
@Suite(.ownThread) struct BytesOnceTests {
    /// A worker fed bytes is SIGKILLed holding four (or more) finished joined jobs it had not sent
    /// (PHOTOMILL_FAULT_CRASH_WITH_RESULTS) and every other job it held; another worker fed
    /// bytes finishes the run. Every lost lease had the photo's three kinds, each is done
    /// once afterwards, every photo's hash and thumbnail were done under one lease (one
    /// JOB), and the coordinator sent the photos' bytes once each, plus once more for each
    /// job lost with the worker (and the XMP sidecars): not once per tier.
    @Test func killedFedWorkerHasItsJobsSentAgainWhole() throws {
        let bench = try FaultBench(count: 40, seed: 41)
        let kinds = "hash,metadata,thumbnail"
        let coordinator = try BackgroundProcess.coordinator(
            anyLoopbackPort,
            bench,
            kinds: kinds,
            extra: ["--no-exports", "--http", "127.0.0.1:0"]
        )
        let endpoint = try coordinator.boundEndpoint()
        #expect(eventually(seconds: 60) { (try? bench.count("SELECT COUNT(*) FROM tasks")) == bench.files.count * 3 })
        let doomed = try BackgroundProcess.worker(
            endpoint,
            slots: 4,
            kinds: kinds,
            environment: ["PHOTOMILL_FAULT_CRASH_WITH_RESULTS": "4"]
        )
        #expect(doomed.wait(seconds: 60) != nil, "the worker did not die: \(doomed.stderr)")
        // At least four: the socket thread takes the slots' finished results as they come,
        // so two that finish together arrive in one batch (a fed worker holds more jobs
        // than slots, the next one's bytes fetched ahead).
        let held = doomed.stderr.firstMatch(of: /dying with (\d+) results not sent/).flatMap { Int($0.1) }
        #expect((held ?? 0) >= 4, "\(doomed.stderr)")
        // The other worker comes once the coordinator has recorded the loss (the lost
        // tasks pending again, none leased): its tiers are then paged together, and each
        // lost job goes out whole. Had it connected before, each tier would find the lost
        // tasks when it next pages from the front, on its own: the hash and metadata in
        // one JOB, the thumbnail in another (PROTOCOL.md, "Each file's bytes once").
        #expect(
            eventually(seconds: 120) {
                (try? bench.count("SELECT COUNT(*) FROM tasks WHERE state = 'leased'")) == 0
                    && ((try? bench.count("SELECT COUNT(*) FROM attempts WHERE outcome = 'worker-lost'")) ?? 0) > 0
            },
            "\(coordinator.stderr)"
        )
        let other = try BackgroundProcess.worker(endpoint, slots: 2, kinds: kinds)
        #expect(bench.waitUntilFinished(), "\(coordinator.stderr)")

        let ledger = try bench.ledger()
        ledger.expectNothingLost("a fed worker killed with its bytes")
        // Each lease lost with the worker held the photo's three kinds.
        let lost = try CatalogQuery.rows(
            bench.catalog,
            """
            SELECT leaseToken, GROUP_CONCAT(kind) FROM (SELECT leaseToken, kind FROM attempts
                WHERE outcome = 'worker-lost' AND worker LIKE '%-\(doomed.pid)-%' ORDER BY kind) GROUP BY leaseToken
            """
        )
        #expect(lost.count >= max(held ?? 4, 4) && lost.allSatisfy { $0[1] == "hash,metadata,thumbnail" }, "\(lost)")
        #expect(
            try bench.count(
                """
                SELECT COUNT(*) FROM attempts a WHERE a.outcome = 'worker-lost' AND NOT EXISTS (SELECT 1 FROM attempts b
                    WHERE b.photoId = a.photoId AND b.kind = a.kind AND b.outcome = 'done' AND b.id > a.id)
                """
            ) == 0,
            "each lost task done afterwards"
        )
        // One JOB per photo for the three kinds: its done hash and thumbnail share a token.
        #expect(
            try bench.count(
                """
                SELECT COUNT(*) FROM attempts h JOIN attempts t ON t.photoId = h.photoId AND t.kind = 'thumbnail' AND t.outcome = 'done'
                    WHERE h.kind = 'hash' AND h.outcome = 'done' AND h.leaseToken != t.leaseToken
                """
            ) == 0
        )
        #expect(try bench.count("SELECT COUNT(*) FROM attempts WHERE kind = 'thumbnail' AND outcome = 'done'") > 0)

        // Bytes sent: at least the photos' bytes, at most their bytes once per lease (every
        // kind's attempts named) plus the sidecars — about 2× before the joined JOBs.
        let sent = try metric("photomill_file_bytes_sent_total", coordinator)
        let books = try Tool.run(
            "python3",
            [
                "-c",
                """
                import os, sqlite3, sys
                con = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True)
                photos = {i: os.path.getsize(p) for i, p in con.execute("SELECT id, path FROM photos")}
                jobs = con.execute("SELECT DISTINCT photoId, leaseToken FROM attempts WHERE leaseToken IS NOT NULL").fetchall()
                sidecars = sum(os.path.getsize(os.path.join(d, n)) for d, _, ns in os.walk(sys.argv[2]) for n in ns if n.lower().endswith('.xmp'))
                print(sum(photos.values()), sum(photos[i] for i, _ in jobs), sidecars)
                """, bench.catalog.path, bench.photos.path,
            ]
        )
        let figures = books.stdout.split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(figures.count == 3, "\(books.stdout) \(books.stderr)")
        if figures.count == 3 {
            #expect(
                sent >= figures[0] && sent <= figures[1] + figures[2],
                "sent \(sent), photos \(figures[0]), per lease \(figures[1]), sidecars \(figures[2])"
            )
            #expect(sent < 1.5 * figures[0], "sent \(sent) for \(figures[0]) bytes of photos")
        }
        FaultReport.record(
            "fed worker SIGKILL with bytes",
            injected: 1,
            affected: lost.count,
            lost: ledger.lost,
            twice: ledger.committedTwice,
            recovery: nil,
            note: String(format: "bytes sent ÷ photos' bytes %.3f", figures.count == 3 ? sent / figures[0] : 0)
        )
        coordinator.signal(SIGTERM)
        #expect(coordinator.wait(seconds: 30) == 0, "\(coordinator.stderr)")
        other.signal(SIGTERM)
        #expect(other.wait(seconds: 60) == 0)
    }

    /// Every photo's hash, metadata and thumbnail done by a worker fed bytes that offers no
    /// OCR; one photo then changes (16 bytes appended); a second worker fed bytes offers
    /// OCR alone. The changed photo's OCR JOB finds it changed when its bytes are read
    /// (`file-changed`), the photo is scanned again and every kind of it is done again, from
    /// the new bytes: its stored MD5 is the new file's (hashlib). Every OCR went alone.
    @Test func fileChangedBetweenTiersIsDoneAgainFromItsNewBytes() throws {
        let bench = try FaultBench(count: 12, seed: 43)
        // Nothing watched: the coordinator meets the change when it reads the bytes.
        let coordinator = try BackgroundProcess.coordinator(
            anyLoopbackPort,
            bench,
            kinds: "hash,metadata,thumbnail,ocr",
            extra: ["--no-exports", "--max-watches", "0"]
        )
        let endpoint = try coordinator.boundEndpoint()
        let first = try BackgroundProcess.worker(endpoint, slots: 2, kinds: "hash,metadata,thumbnail")
        #expect(
            eventually(seconds: 120) {
                (try? bench.count(
                    "SELECT COUNT(*) FROM tasks WHERE kind != 'ocr' AND state NOT IN ('pending', 'leased')"
                )) == bench.files.count * 3
            },
            "\(coordinator.stderr)"
        )
        let changed = bench.goodFile(0)
        let before = try md5(changed)
        #expect(
            try CatalogQuery.rows(bench.catalog, "SELECT md5 FROM photos WHERE path = '\(changed)'").first?.first
                == before
        )
        let handle = try #require(FileHandle(forWritingAtPath: changed))
        try handle.seekToEnd()
        handle.write(Data(repeating: 0, count: 16))
        try handle.close()
        let after = try md5(changed)

        let second = try BackgroundProcess.worker(endpoint, slots: 1, kinds: "ocr")
        #expect(bench.waitUntilFinished(), "\(coordinator.stderr)")
        #expect(
            try CatalogQuery.rows(bench.catalog, "SELECT md5 FROM photos WHERE path = '\(changed)'").first?.first
                == after,
            "the hash is the new file's"
        )
        let history = try CatalogQuery.rows(
            bench.catalog,
            """
            SELECT a.kind, a.outcome, COALESCE(a.errorClass, ''), COALESCE(a.leaseToken, '') FROM attempts a
            JOIN photos p ON p.id = a.photoId WHERE p.path = '\(changed)' AND a.outcome != 'stale' ORDER BY a.id
            """
        )
        #expect(history.contains { $0[0] == "ocr" && $0[2] == "file-changed" }, "\(history)")
        // Done twice each (before and after the change), the second time in one JOB.
        let hashes = history.filter { $0[0] == "hash" && $0[1] == "done" }
        let thumbnails = history.filter { $0[0] == "thumbnail" && $0[1] == "done" }
        #expect(hashes.count == 2 && thumbnails.count == 2 && hashes.last?[3] == thumbnails.last?[3], "\(history)")
        #expect(
            try bench.count(
                "SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId WHERE p.path = '\(changed)' AND t.state = 'done'"
            ) == 4
        )
        // OCR travelled alone, and every other photo's was done once.
        #expect(
            try bench.count(
                "SELECT COUNT(*) FROM attempts a WHERE a.kind = 'ocr' AND EXISTS (SELECT 1 FROM attempts b WHERE b.leaseToken = a.leaseToken AND b.kind != 'ocr')"
            ) == 0
        )
        let ledger = try bench.ledger()
        #expect(
            ledger.lost == 0 && ledger.brokenUnexplained == 0 && ledger.unaccounted == 0 && ledger.miscounted == 0,
            "\(ledger)"
        )
        coordinator.signal(SIGTERM)
        #expect(coordinator.wait(seconds: 30) == 0, "\(coordinator.stderr)")
        for worker in [first, second] { worker.signal(SIGTERM) }
        for worker in [first, second] { #expect(worker.wait(seconds: 60) == 0) }
    }

    private func md5(_ path: String) throws -> String {
        try Tool.run(
            "python3",
            ["-c", "import hashlib, sys; print(hashlib.md5(open(sys.argv[1], 'rb').read()).hexdigest())", path]
        )
        .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A counter of the coordinator's /metrics, at the address its "dashboard listening" line gives.
    private func metric(_ name: String, _ coordinator: BackgroundProcess) throws -> Double {
        let url = try #require(
            coordinator.stderr.split(separator: "\n").first { $0.contains("dashboard listening") }?
                .split(separator: " ").first { $0.hasPrefix("http.url=") }?.dropFirst("http.url=".count)
        )
        let text = try Tool.run(
            "python3",
            [
                "-c",
                "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1] + 'metrics').read().decode())",
                String(url),
            ]
        ).stdout
        let line = try #require(
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{") },
            "\(text)"
        )
        return try #require(Double(line.split(separator: " ").last ?? ""))
    }
}
