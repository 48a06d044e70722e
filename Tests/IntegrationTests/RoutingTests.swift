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
import MillProtocol
import PhotomillTestSupport
import Testing
import ZeroMQ

/// Capability routing and file access, with the built binary over ipc (CURVE is for
/// tcp; SecurityTests covers it).
@Suite(.serialized, .ownThread) struct RoutingTests {
    /// A worker limited to hash and one limited to metadata share each photo's job (each
    /// takes its part, whatever the timing); OCR goes only to a worker with the
    /// coordinator's language; while no connected worker can take OCR, its tasks wait and
    /// `status` says why.
    @Test func jobsWaitForACapableWorkerAndStatusSaysWhy() throws {
        let directory = try temporaryDirectory()
        let photos = directory.appendingPathComponent("photos")
        _ = try PhotomillBinary.run(["samples", photos.path, "--count", "4", "--seed", "21", "--photo-size", "800x600"])
        let catalog = directory.appendingPathComponent("catalog.sqlite")
        let endpoint = "ipc://\(directory.path)/coordinator.sock"
        let coordinator = try BackgroundProcess([
            "coordinator", "--bind", endpoint, "--catalog", catalog.path, "--no-exports",
            "--kinds", "hash,metadata,ocr", photos.path,
        ])
        defer { coordinator.signal(SIGKILL) }
        _ = try coordinator.boundEndpoint()
        let settled = "SELECT COUNT(*) FROM tasks WHERE state IN ('done', 'failed') AND kind = "
        let attemptsNotBy = { (kind: String, process: BackgroundProcess) in
            "SELECT COUNT(*) FROM attempts WHERE kind = '\(kind)' AND worker NOT LIKE '%-\(process.pid)-%'"
        }

        let hashOnly = try BackgroundProcess([
            "worker", "--connect", endpoint, "--kinds", "hash", "--root", photos.path, "--slots", "1",
        ])
        defer { hashOnly.signal(SIGKILL) }
        let german = try BackgroundProcess([
            "worker", "--connect", endpoint, "--kinds", "metadata,ocr", "--ocr-languages", "deu",
            "--root", photos.path, "--slots", "1",
        ])
        defer { german.signal(SIGKILL) }
        #expect(
            eventually(seconds: 60) {
                (try? CatalogQuery.count(catalog, settled + "'hash'")) == 4
                    && (try? CatalogQuery.count(catalog, settled + "'metadata'")) == 4
            },
            "\(coordinator.stderr)"
        )
        #expect(try CatalogQuery.count(catalog, attemptsNotBy("hash", hashOnly)) == 0, "hash only on the hash worker")
        #expect(
            try CatalogQuery.count(catalog, attemptsNotBy("metadata", german)) == 0,
            "metadata only on the metadata worker"
        )
        #expect(
            try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE kind = 'ocr' AND state = 'pending'") == 4
        )
        #expect(
            try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM attempts WHERE kind = 'ocr'") == 0,
            "no OCR without eng"
        )
        #expect(
            eventually(seconds: 10) {
                statusText(catalog).contains(
                    "waiting: 4 ocr tasks: no connected worker offers OCR in eng (they offer deu)"
                )
            },
            "\(statusText(catalog))"
        )

        german.signal(SIGKILL)
        #expect(
            eventually(seconds: 20) {
                statusText(catalog).contains("waiting: 4 ocr tasks: no connected worker offers ocr")
            },
            "\(statusText(catalog))"
        )

        let english = try BackgroundProcess([
            "worker", "--connect", endpoint, "--kinds", "ocr", "--root", photos.path, "--slots", "1",
        ])
        defer { english.signal(SIGKILL) }
        #expect(
            eventually(seconds: 120) { (try? CatalogQuery.count(catalog, settled + "'ocr'")) == 4 },
            "\(coordinator.stderr)"
        )
        #expect(try CatalogQuery.count(catalog, attemptsNotBy("ocr", english)) == 0, "OCR only on the worker with eng")
        #expect(eventually(seconds: 10) { !statusText(catalog).contains("waiting") }, "\(statusText(catalog))")
    }

    /// A worker whose roots do not hold the photos gets their bytes: every task is done
    /// (its roots would refuse the paths), and the MD5s match Python's hashlib on the files.
    @Test func workerWithoutThePathGetsTheBytes() throws {
        let directory = try temporaryDirectory()
        let photos = directory.appendingPathComponent("photos")
        let elsewhere = directory.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        _ = try PhotomillBinary.run(["samples", photos.path, "--count", "8", "--seed", "22"])
        let catalog = directory.appendingPathComponent("catalog.sqlite")
        let endpoint = "ipc://\(directory.path)/coordinator.sock"
        let coordinator = try BackgroundProcess([
            "coordinator", "--bind", endpoint, "--catalog", catalog.path, "--no-exports",
            "--kinds", "hash,metadata,thumbnail", photos.path,
        ])
        defer { coordinator.signal(SIGKILL) }
        _ = try coordinator.boundEndpoint()
        let worker = try BackgroundProcess(["worker", "--connect", endpoint, "--root", elsewhere.path, "--slots", "2"])
        defer { worker.signal(SIGKILL) }

        #expect(
            eventually(seconds: 90) {
                (try? CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE state IN ('done', 'failed')")) == 24
            },
            "\(coordinator.stderr)"
        )
        #expect(
            try CatalogQuery.count(
                catalog,
                "SELECT COUNT(*) FROM tasks WHERE errorMessage LIKE '%outside this worker%'"
            ) == 0
        )
        let hashed = try CatalogQuery.rows(catalog, "SELECT path, md5 FROM photos WHERE md5 IS NOT NULL")
        #expect(hashed.count >= 6, "the good samples are hashed: \(hashed)")
        for row in hashed {
            #expect(row[1] == (try pythonMD5(row[0])), "\(row[0])")
        }
        #expect(try CatalogQuery.count(catalog, "SELECT COUNT(*) FROM thumbnails") >= 6)
    }

    /// A file the coordinator cannot read any more (deleted after the scan) is not sent:
    /// its tasks get a retryable `unreadable` attempt that names the file and the cause.
    @Test func fileGoneBeforeTransferIsAnExplainedAttempt() throws {
        let directory = try temporaryDirectory()
        let photos = directory.appendingPathComponent("photos")
        _ = try PhotomillBinary.run(["samples", photos.path, "--count", "2", "--seed", "23", "--photo-size", "640x480"])
        let catalog = directory.appendingPathComponent("catalog.sqlite")
        let endpoint = "ipc://\(directory.path)/coordinator.sock"
        // Nothing watched (--max-watches 0): the deletion is met when the file is read, as on
        // a network share (watched, the photo would be missing before any worker asked).
        let coordinator = try BackgroundProcess([
            "coordinator", "--bind", endpoint, "--catalog", catalog.path, "--no-exports",
            "--kinds", "hash", "--max-watches", "0", photos.path,
        ])
        defer { coordinator.signal(SIGKILL) }
        _ = try coordinator.boundEndpoint()
        #expect(eventually(seconds: 30) { (try? CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks")) == 2 })
        let victim = try #require(try CatalogQuery.rows(catalog, "SELECT path FROM photos ORDER BY path").first?.first)
        try FileManager.default.removeItem(atPath: victim)
        let worker = try BackgroundProcess(["worker", "--connect", endpoint, "--slots", "1"])
        defer { worker.signal(SIGKILL) }
        let query =
            "SELECT errorClass, errorMessage FROM attempts a JOIN photos p ON p.id = a.photoId WHERE p.path = '\(victim)'"
        #expect(
            eventually(seconds: 30) { !((try? CatalogQuery.rows(catalog, query)) ?? []).isEmpty },
            "\(coordinator.stderr)"
        )
        let attempt = try #require(try CatalogQuery.rows(catalog, query).first)
        #expect(attempt[0] == "unreadable")
        #expect(attempt[1].contains(victim) && attempt[1].contains("cannot read it to send it"), "\(attempt[1])")
        // The system's words for ENOENT (Python: os.strerror(errno.ENOENT)), not Foundation's.
        #expect(attempt[1].hasSuffix(": No such file or directory"), "\(attempt[1])")
        expectNoInternals(attempt[1], "the unreadable file's message")
    }

    /// A file larger than one blob frame (64 MiB) travels split over two and arrives
    /// whole: its MD5 matches hashlib's.
    @Test func fileLargerThanAFrameTravelsSplit() throws {
        let directory = try temporaryDirectory()
        let photos = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let big = photos.appendingPathComponent("big.jpg")
        var bytes = Data(count: 70_000_000)
        bytes.withUnsafeMutableBytes { buffer in
            var generator = SystemRandomNumberGenerator()
            for offset in stride(from: 0, to: buffer.count - 7, by: 8) {
                buffer.storeBytes(of: generator.next() as UInt64, toByteOffset: offset, as: UInt64.self)
            }
        }
        bytes.replaceSubrange(0..<4, with: [0xFF, 0xD8, 0xFF, 0xE0])  // a JPEG by its signature, so the scan takes it
        try bytes.write(to: big)
        let cluster = try BytesFedCluster(directory: directory, photos: photos)
        let (catalog, coordinator, worker) = (cluster.catalog, cluster.coordinator, cluster.worker)
        #expect(
            eventually(seconds: 90) {
                (try? CatalogQuery.count(catalog, "SELECT COUNT(*) FROM tasks WHERE state = 'done'")) == 1
            },
            "\(coordinator.stderr)\n\(worker.stderr)"
        )
        #expect(try CatalogQuery.rows(catalog, "SELECT md5 FROM photos").first?.first == (try pythonMD5(big.path)))
    }

    /// A coordinator of the test's making sends JOBs for files outside the worker's
    /// root, directly and through a symlink inside it: the worker refuses both without
    /// reading them. Its READY advertises its roots in the coordinator's namespace.
    @Test func workerNeverReadsOutsideItsRoots() throws {
        let directory = try temporaryDirectory()
        let photos = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let secret = directory.appendingPathComponent("secret.jpg")
        try Data("not for workers".utf8).write(to: secret)
        try FileManager.default.createSymbolicLink(
            at: photos.appendingPathComponent("link.jpg"),
            withDestinationURL: secret
        )

        let router = try RawPeer(routerAt: "ipc://\(directory.path)/fake.sock")
        let worker = try BackgroundProcess([
            "worker", "--connect", "ipc://\(directory.path)/fake.sock", "--root", photos.path,
            "--map", "/volume1/photos=\(photos.path)", "--slots", "1",
        ])
        defer { worker.signal(SIGKILL) }
        let readyFrames = try #require(try router.receive(within: 20), "\(worker.stderr)")
        let peer = readyFrames[0]
        guard case .ready(let ready) = try MillCodec.decode(Array(readyFrames.dropFirst())) else {
            Issue.record("the first message is not READY")
            return
        }
        #expect(ready.pathRoots == ["/volume1/photos"], "roots are advertised with the map undone")

        for (index, path) in [secret.path, "/volume1/photos/link.jpg"].enumerated() {
            var info = stat()
            _ = stat(secret.path, &info)
            var job = Photomill_V1_Job()
            job.jobID = "job-\(index)"
            job.photoID = Int64(index + 1)
            job.path = path
            job.fileSize = UInt64(info.st_size)
            job.fileMtimeNs = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            job.kinds = [.hash]
            job.leaseToken = "token-\(index)"
            var deadline = Photomill_V1_KindDeadline()
            deadline.kind = .hash
            deadline.deadlineMs = 60_000
            job.deadlines = [deadline]
            var parameters = Photomill_V1_ProcessingParameters()
            parameters.thumbnailSize = 256
            parameters.thumbnailQuality = 80
            parameters.ocrMaxSide = 4096
            parameters.pixelLimit = 200_000_000
            job.parameters = parameters
            try router.send(.job(job, blobs: []), to: peer)
            var result: Photomill_V1_Result?
            while result == nil, let frames = try router.receive(within: 20) {
                if case .result(let body, _) = try MillCodec.decode(Array(frames.dropFirst())) { result = body }
            }
            let outcome = try #require(result?.results.first, "a RESULT for \(path)")
            guard case .failure(let failure)? = outcome.outcome else {
                Issue.record("\(path) was read: \(outcome)")
                continue
            }
            #expect(failure.errorClass == "unreadable")
            #expect(failure.message.contains("outside this worker's roots"), "\(failure.message)")
        }
    }
}

private func statusText(_ catalog: URL) -> String {
    (try? PhotomillBinary.run(["status", "--catalog", catalog.path]).stdout) ?? ""
}

/// MD5 of a file by Python's hashlib: a second implementation to compare with.
private func pythonMD5(_ path: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "python3", "-c", "import hashlib, sys; print(hashlib.md5(open(sys.argv[1], 'rb').read()).hexdigest())", path,
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
