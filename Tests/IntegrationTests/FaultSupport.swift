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

/// A folder of generated sample photos and a catalog beside it, for the fault tests
/// (docs/reliability.md). Tiny photos by default, so that big runs stay cheap.
struct FaultBench {
    let directory: URL
    let photos: URL
    var catalog: URL
    /// Absolute paths of the deliberately broken samples that are photos (samples.json).
    private(set) var broken: Set<String>
    /// Absolute paths of every sample that is a photo, in the order the scanner numbers
    /// them (the text and empty files named .jpg are removed: the scan fails them by name).
    private(set) var files: [String]
    /// The samples' names, and whether each is broken on purpose.
    private let samples: [(name: String, broken: Bool)]
    private var copies = 0

    /// `count` samples; with `copies` > 1, the folder also holds that many copies of them
    /// in sub-folders (cheap to make; each copy is a photo of its own, by path).
    init(count: Int, seed: Int, photoSize: String = "64x48", copies: Int = 1) throws {
        directory = try temporaryDirectory()
        photos = directory.appendingPathComponent("photos")
        catalog = directory.appendingPathComponent("catalog.sqlite")
        let made = try PhotomillBinary.run([
            "samples", photos.path, "--count", String(count), "--seed", String(seed),
            "--photo-size", photoSize,
        ])
        guard made.status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSDebugDescriptionErrorKey: made.stderr])
        }
        let manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: photos.appendingPathComponent("samples.json")))
            as? [String: Any]
        // The text and empty files named .jpg fail at the scan, never reaching a worker
        // (ClusterTests and LivingLibraryTests check them): out of the way of the faults here.
        let all = manifest?["files"] as? [[String: Any]] ?? []
        for spec in all where spec["scanFails"] != nil {
            try FileManager.default.removeItem(at: photos.appendingPathComponent(spec["file"] as? String ?? ""))
        }
        samples = all.filter { $0["scanFails"] == nil }.map {
            (name: $0["file"] as? String ?? "", broken: $0["broken"] != nil)
        }
        let folder = photos
        files = samples.map { folder.appendingPathComponent($0.name).path }.sorted()
        broken = Set(samples.filter(\.broken).map { folder.appendingPathComponent($0.name).path })
        for _ in 1..<max(1, copies) { try addCopy() }
    }

    /// Another copy of the samples, in a sub-folder of its own (`copy-NN`): more photos, for
    /// a fault test whose work must outlast what it injects (a coordinator running over the
    /// folder picks them up as its watcher sees them).
    mutating func addCopy() throws {
        copies += 1
        let sub = photos.appendingPathComponent(String(format: "copy-%02d", copies))
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        for sample in samples {
            let target = sub.appendingPathComponent(sample.name).path
            try FileManager.default.copyItem(atPath: photos.appendingPathComponent(sample.name).path, toPath: target)
            files.append(target)
            if sample.broken { broken.insert(target) }
        }
        files.sort()
    }

    /// A good (not broken) sample, the `index`-th in scan order.
    func goodFile(_ index: Int) -> String { files.filter { !broken.contains($0) }[index] }

    func count(_ sql: String) throws -> Int { try CatalogQuery.count(catalog, sql) }

    var unfinished: Int { (try? count("SELECT COUNT(*) FROM tasks WHERE state IN ('pending', 'leased')")) ?? -1 }
    var doneAttempts: Int { (try? count("SELECT COUNT(*) FROM attempts WHERE outcome = 'done'")) ?? -1 }

    /// Waits (bounded) until every file is in the catalog and no task is pending or leased.
    /// (The scan runs beside the work: "nothing unfinished" alone can be a moment between
    /// two of its batches.)
    func waitUntilFinished(seconds: Double = 240) -> Bool {
        eventually(seconds: seconds) {
            (try? count("SELECT COUNT(*) FROM photos")) ?? -1 >= files.count && unfinished == 0
        }
    }

    /// The books of the catalog, read with Python's sqlite3 (independent of photomill's code).
    func ledger() throws -> Ledger {
        let brokenList = broken.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ",")
        return Ledger(
            tasks: try count("SELECT COUNT(*) FROM tasks"),
            done: try count("SELECT COUNT(*) FROM tasks WHERE state = 'done'"),
            lost: try count(
                """
                SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId
                WHERE p.path NOT IN (\(brokenList)) AND t.state != 'done'
                """
            ),
            brokenUnexplained: try count(
                """
                SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId
                WHERE p.path IN (\(brokenList)) AND NOT (t.state = 'done'
                    OR (t.state = 'failed' AND t.errorClass NOT IN ('worker-lost', 'lease-expired', 'interrupted') AND t.errorMessage != ''))
                """
            ),
            committedTwice: try count(
                """
                SELECT COUNT(*) FROM (SELECT photoId, kind FROM attempts WHERE outcome = 'done' GROUP BY photoId, kind HAVING COUNT(*) > 1)
                """
            ),
            doneWithoutOneAttempt: try count(
                """
                SELECT COUNT(*) FROM tasks t WHERE t.state = 'done' AND
                    (SELECT COUNT(*) FROM attempts a WHERE a.photoId = t.photoId AND a.kind = t.kind AND a.outcome = 'done') != 1
                """
            ),
            // Since the photo last changed: a change (at a scan, or a worker's `file-changed`)
            // gives its tasks a fresh budget and keeps their history.
            unaccounted: try count(
                """
                SELECT COUNT(*) FROM tasks t JOIN photos p ON p.id = t.photoId WHERE t.attempts !=
                    (SELECT COUNT(*) FROM attempts a WHERE a.photoId = t.photoId AND a.kind = t.kind AND a.outcome != 'stale'
                        AND a.startedAt >= p.changedAt)
                """
            ),
            miscounted: try count(
                """
                SELECT COUNT(*) FROM (SELECT kind, state, SUM(n) AS off FROM (
                    SELECT kind, state, n FROM task_counts
                    UNION ALL SELECT kind, state, -COUNT(*) FROM tasks GROUP BY kind, state)
                GROUP BY kind, state HAVING off != 0)
                """
            ),
            workerLost: try count("SELECT COUNT(*) FROM attempts WHERE outcome = 'worker-lost'"),
            leaseExpired: try count("SELECT COUNT(*) FROM attempts WHERE outcome = 'lease-expired'"),
            stale: try count("SELECT COUNT(*) FROM attempts WHERE outcome = 'stale'")
        )
    }
}

/// What a finished run's catalog says about loss and duplication.
struct Ledger: CustomStringConvertible {
    let tasks: Int
    let done: Int
    /// Tasks of good photos that are not done.
    let lost: Int
    /// Tasks of broken photos that neither succeeded nor failed with a cause of their own.
    let brokenUnexplained: Int
    /// Tasks with more than one successful attempt.
    let committedTwice: Int
    /// Done tasks not backed by exactly one `done` attempt.
    let doneWithoutOneAttempt: Int
    /// Tasks whose `attempts` counter differs from their attempt rows (stale ones aside):
    /// a lease taken back without a trace would show here.
    let unaccounted: Int
    /// Kinds and states whose `task_counts` row (what `status` and the end of a run read)
    /// differs from the tasks counted one by one.
    let miscounted: Int
    let workerLost: Int
    let leaseExpired: Int
    let stale: Int

    /// The promises every fault test checks.
    func expectNothingLost(_ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(tasks > 0, "\(context): no tasks", sourceLocation: sourceLocation)
        #expect(lost == 0, "\(context): \(self)", sourceLocation: sourceLocation)
        #expect(brokenUnexplained == 0, "\(context): \(self)", sourceLocation: sourceLocation)
        #expect(committedTwice == 0, "\(context): \(self)", sourceLocation: sourceLocation)
        #expect(doneWithoutOneAttempt == 0, "\(context): \(self)", sourceLocation: sourceLocation)
        #expect(unaccounted == 0, "\(context): \(self)", sourceLocation: sourceLocation)
        #expect(miscounted == 0, "\(context): \(self)", sourceLocation: sourceLocation)
    }

    var description: String {
        "tasks \(tasks), done \(done), lost \(lost), broken unexplained \(brokenUnexplained), committed twice \(committedTwice), done without one attempt \(doneWithoutOneAttempt), unaccounted \(unaccounted), miscounted \(miscounted), worker-lost \(workerLost), lease-expired \(leaseExpired), stale \(stale)"
    }
}

/// The figures of docs/reliability.md's table: one line per fault test, on stderr and
/// appended to `$TMPDIR/photomill-reliability.tsv`. Measured, never asserted.
enum FaultReport {
    static let file = FileManager.default.temporaryDirectory.appendingPathComponent("photomill-reliability.tsv")

    static func record(
        _ fault: String,
        injected: Int,
        affected: Int,
        lost: Int,
        twice: Int,
        recovery: Double?,
        note: String = ""
    ) {
        let seconds = recovery.map { String(format: "%.1f", $0) } ?? "-"
        let line =
            [fault, String(injected), String(affected), String(lost), String(twice), seconds, note].joined(
                separator: "\t"
            ) + "\n"
        FileHandle.standardError.write(Data(("reliability: " + line).utf8))
        if !FileManager.default.fileExists(atPath: file.path) {
            _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        }
        if let handle = try? FileHandle(forWritingTo: file) {
            _ = try? handle.seekToEnd()
            handle.write(Data(line.utf8))
            try? handle.close()
        }
    }
}

extension BackgroundProcess {
    /// A worker process connected to `endpoint` (plaintext tcp: the faults here are not
    /// about security), reading the photos under `root` itself, or getting them as bytes.
    static func worker(
        _ endpoint: String,
        root: URL? = nil,
        slots: Int = 1,
        kinds: String = "hash,metadata",
        environment: [String: String] = [:]
    ) throws -> BackgroundProcess {
        try BackgroundProcess(
            [
                "worker", "--connect", endpoint, "--insecure", "--slots", String(slots), "--kinds", kinds,
                "--log-level", "warning",
            ] + (root.map { ["--root", $0.path] } ?? []),
            environment: environment
        )
    }

    /// A coordinator on `endpoint` over `bench`'s photos and catalog.
    static func coordinator(
        _ endpoint: String,
        _ bench: FaultBench,
        kinds: String = "hash,metadata",
        extra: [String] = ["--no-exports"]
    ) throws -> BackgroundProcess {
        try BackgroundProcess(
            [
                "coordinator", "--bind", endpoint, "--insecure", "--catalog", bench.catalog.path, "--kinds", kinds,
                "--log-level", "info",
            ] + extra + [bench.photos.path]
        )
    }
}

/// The worker id of a catalog row names its process: host-PID-random.
func workerId(_ id: String, isProcess pid: Int32) -> Bool { id.contains("-\(pid)-") }
