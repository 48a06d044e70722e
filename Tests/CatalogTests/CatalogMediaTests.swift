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
import GRDB
import PhotomillCore
import Testing

@testable import Catalog

/// What the scan records of a real library: media types and their tasks, skipped files,
/// sidecars and Live Photo pairs.
@Suite struct CatalogMediaTests {
    let catalog: Catalog
    let all = Set(Kind.allCases)

    init() throws {
        catalog = try Catalog(path: try freshCatalogPath("media"))
    }

    private func file(_ path: String, _ format: MediaFormat?, size: Int64 = 100, sidecar: Sidecar? = nil) -> ScannedFile
    {
        ScannedFile(
            path: path,
            size: size,
            mtimeNs: 1_000,
            recognition: format.map { .media($0) } ?? .skipped(.notMedia),
            sidecar: sidecar
        )
    }

    private func rows(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        try catalog.pool.read { db in try Row.fetchAll(db, sql: sql, arguments: arguments) }
    }

    private func kinds(of path: String) throws -> Set<String> {
        Set(
            try rows("SELECT kind FROM tasks JOIN photos ON photos.id = tasks.photoId WHERE path = ?", [path]).map {
                $0["kind"]
            }
        )
    }

    /// Completes every pending task of the catalog, as a worker's results would.
    private func completeAll() throws {
        let jobs = try catalog.dueJobs(now: 10, limit: 100)
        var batch = CommitBatch()
        for (index, job) in jobs.enumerated() {
            let token = "t\(index)"
            batch.leases.append(
                Lease(
                    photoId: job.photoId,
                    kinds: job.kinds,
                    token: token,
                    worker: "w",
                    leasedAt: 10,
                    expiresAt: 70,
                    pagedUpdatedAt: job.updatedAt
                )
            )
            for kind in job.kinds {
                batch.results.append(
                    ReportedResult(
                        result: TaskResult(
                            photoId: job.photoId,
                            kind: kind,
                            leaseToken: token,
                            outcome: .failure(errorClass: .corrupt, message: "x", retryable: false),
                            recipe: "r"
                        ),
                        worker: "w",
                        startedAt: 10,
                        endedAt: 11
                    )
                )
            }
        }
        _ = try catalog.commit(batch.folded(), now: 11)
    }

    @Test("videos get every task but OCR; stills and RAW get all five")
    func tasksByMediaType() throws {
        let summary = try catalog.record(
            [
                file("/p/IMG_1.HEIC", .heic), file("/p/IMG_2.MOV", .mov), file("/p/DSC_3.NEF", .nef),
            ],
            kinds: all,
            now: 1
        )
        #expect(summary.added == 3 && summary.queuedTasks == 5 + 4 + 5)
        #expect(try kinds(of: "/p/IMG_2.MOV") == ["hash", "metadata", "thumbnail", "similarity"])
        #expect(try kinds(of: "/p/DSC_3.NEF") == ["hash", "metadata", "thumbnail", "ocr", "similarity"])
        let types = try rows("SELECT path, format, mediaType FROM photos ORDER BY id").map {
            "\($0["path"] as String) \($0["format"] as String) \($0["mediaType"] as String)"
        }
        #expect(types == ["/p/IMG_1.HEIC heic photo", "/p/IMG_2.MOV mov video", "/p/DSC_3.NEF nef raw"])
    }

    @Test("a file that is not media is skipped and remembered, never a photo or a failure")
    func skippedFiles() throws {
        let first = try catalog.record([file("/p/notes.txt", nil), file("/p/a.jpg", .jpeg)], kinds: all, now: 1)
        #expect(first.skipped == 1 && first.added == 1)
        #expect(try rows("SELECT path FROM skipped_files").map { $0["path"] as String } == ["/p/notes.txt"])
        #expect(try rows("SELECT path FROM photos").count == 1)
        // Known and unchanged: counted again without a read (the scanner's `.unchanged`).
        let again = try catalog.record(
            [ScannedFile(path: "/p/notes.txt", size: 100, mtimeNs: 1_000, recognition: .unchanged)],
            kinds: all,
            now: 2
        )
        #expect(again.skipped == 1 && again.queuedTasks == 0)
        let known = try catalog.knownFiles(["/p/notes.txt", "/p/a.jpg", "/p/new.jpg"])
        #expect(known.skipped["/p/notes.txt"] == FileStamp(size: 100, mtimeNs: 1_000))
        #expect(known.photos["/p/a.jpg"]?.format == .jpeg)
        #expect(known.photos["/p/new.jpg"] == nil && known.skipped["/p/new.jpg"] == nil)
        // A photo overwritten by something that is not media leaves the photos, tasks and all.
        let replaced = try catalog.record([file("/p/a.jpg", nil, size: 5)], kinds: all, now: 3)
        #expect(replaced.skipped == 1)
        #expect(try rows("SELECT * FROM photos").isEmpty)
        #expect(try rows("SELECT * FROM tasks").isEmpty)
        #expect(try rows("SELECT SUM(n) AS n FROM task_counts").first?["n"] == 0)
        // And a skipped file that became media is a photo.
        let became = try catalog.record([file("/p/notes.txt", .png, size: 7)], kinds: all, now: 4)
        #expect(became.added == 1)
        #expect(try rows("SELECT * FROM skipped_files WHERE path = '/p/notes.txt'").isEmpty)
    }

    @Test("a start with more kinds adds the tasks each photo never had, by media type, once; not to missing photos")
    func ensureTasksAddsWhatIsMissing() throws {
        _ = try catalog.record(
            [file("/p/a.jpg", .jpeg), file("/p/b.mov", .mov), file("/p/c.jpg", .jpeg), file("/q/d.jpg", .jpeg)],
            kinds: [.hash],
            now: 1
        )
        _ = try catalog.markGone(["/p/c.jpg"], now: 2)
        // Thumbnails for the still and the video, OCR for the still only; nothing for the
        // missing photo or outside the root.
        #expect(try catalog.ensureTasks(under: "/p", kinds: [.hash, .thumbnail, .ocr], now: 3) == 3)
        #expect(try kinds(of: "/p/a.jpg") == ["hash", "thumbnail", "ocr"])
        #expect(try kinds(of: "/p/b.mov") == ["hash", "thumbnail"])
        #expect(try kinds(of: "/p/c.jpg") == ["hash"])
        #expect(try kinds(of: "/q/d.jpg") == ["hash"])
        #expect(try catalog.ensureTasks(under: "/p", kinds: [.hash, .thumbnail, .ocr], now: 4) == 0)
        #expect(
            try rows("SELECT kind, state, n FROM task_counts WHERE kind = 'thumbnail' AND state = 'pending'").first?[
                "n"
            ] == 2
        )
    }

    @Test(
        "the scan's lookup finds every name a file system allows: quotes, backslashes, control characters, any script"
    )
    func knownFilesOfHostileNames() throws {
        let names = [
            "/p/a \"quoted\".jpg", "/p/back\\slash.jpg", "/p/new\nline.jpg", "/p/tab\t\u{1}\u{1f}.jpg", "/p/日本語.jpg",
            "/p/e\u{301}.jpg", "/p/🙂.jpg", "/p/[x]*?.jpg", "/p/{\"json\": 1}.jpg", "/p/\u{7f}del.jpg",
        ]
        _ = try catalog.record(names.map { file($0, .jpeg) } + [file("/p/readme.txt", nil)], kinds: all, now: 1)
        let known = try catalog.knownFiles(names + ["/p/readme.txt", "/p/absent.jpg"])
        #expect(Set(known.photos.keys) == Set(names))
        #expect(Set(known.skipped.keys) == ["/p/readme.txt"])
        // In batches as the scanner sends them, of one and of many.
        #expect(try catalog.knownFiles([names[2]]).photos.keys.first == names[2])
        #expect(try catalog.knownFiles([]).photos.isEmpty)
    }

    @Test("a photo of an older catalog learns its format, and a video loses the OCR task it had")
    func olderCatalogRow() throws {
        _ = try catalog.record([file("/p/clip.mp4", .jpeg)], kinds: all, now: 1)
        try catalog.pool.write { db in try db.execute(sql: "UPDATE photos SET format = NULL, mediaType = NULL") }
        #expect(
            try catalog.knownFiles(["/p/clip.mp4"]).photos["/p/clip.mp4"]?.isUnchanged(
                FileStamp(size: 100, mtimeNs: 1_000),
                skipped: false
            ) == false
        )
        let summary = try catalog.record([file("/p/clip.mp4", .mp4)], kinds: all, now: 2)
        #expect(summary.unchanged == 1 && summary.changed == 0)
        #expect(try kinds(of: "/p/clip.mp4") == ["hash", "metadata", "thumbnail", "similarity"])
        #expect(try rows("SELECT mediaType FROM photos").first?["mediaType"] == "video")
    }

    @Test("a sidecar's appearance, edit or removal re-queues only the metadata")
    func sidecarChanges() throws {
        let sidecar = Sidecar(path: "/p/a.CR2.xmp", size: 10, mtimeNs: 5)
        _ = try catalog.record([file("/p/a.CR2", .cr2, sidecar: sidecar), file("/p/b.CR2", .cr2)], kinds: all, now: 1)
        let jobs = try catalog.dueJobs(now: 10, limit: 10)
        #expect(jobs.first { $0.path == "/p/a.CR2" }?.sidecar == sidecar)
        #expect(jobs.first { $0.path == "/p/b.CR2" }?.sidecar == nil)
        try completeAll()
        #expect(try catalog.dueJobs(now: 10, limit: 10).isEmpty)

        func unchanged(_ path: String, _ sidecar: Sidecar?) -> ScannedFile {
            ScannedFile(path: path, size: 100, mtimeNs: 1_000, recognition: .unchanged, sidecar: sidecar)
        }
        var edited = sidecar
        edited.mtimeNs = 6
        let appeared = Sidecar(path: "/p/b.xmp", size: 3, mtimeNs: 1)
        let summary = try catalog.record(
            [unchanged("/p/a.CR2", edited), unchanged("/p/b.CR2", appeared)],
            kinds: all,
            now: 20
        )
        #expect(summary.sidecarsChanged == 2 && summary.unchanged == 2)
        let requeued = try catalog.dueJobs(now: 30, limit: 10)
        #expect(requeued.map(\.kinds) == [[.metadata], [.metadata]])
        #expect(requeued.map(\.sidecar) == [edited, appeared])
        #expect(
            try rows("SELECT state, n FROM task_counts WHERE kind = 'metadata' AND n > 0").map { $0["state"] as String }
                == ["pending"]
        )
        // Unchanged again: nothing.
        let quiet = try catalog.record(
            [unchanged("/p/a.CR2", edited), unchanged("/p/b.CR2", appeared)],
            kinds: all,
            now: 40
        )
        #expect(quiet.sidecarsChanged == 0 && quiet.queuedTasks == 0)
        // Removed: the metadata runs again without it.
        let removed = try catalog.record([unchanged("/p/a.CR2", nil)], kinds: all, now: 50)
        #expect(removed.sidecarsChanged == 1)
        #expect(try catalog.dueJobs(now: 60, limit: 10).first { $0.path == "/p/a.CR2" }?.sidecar == nil)
    }

    @Test("Live Photos: one still and one video of a stem are linked, whichever came first; other mixes are not")
    func livePhotos() throws {
        _ = try catalog.record([file("/p/IMG_1.MOV", .mov)], kinds: all, now: 1)
        _ = try catalog.record(
            [
                file("/p/IMG_1.HEIC", .heic),
                file("/p/IMG_2.JPG", .jpeg), file("/p/IMG_2.HEIC", .heic), file("/p/IMG_2.MOV", .mov),
                file("/p/IMG_3.DNG", .dng), file("/p/IMG_3.MOV", .mov),
                file("/q/IMG_1.HEIC", .heic),
            ],
            kinds: all,
            now: 2
        )
        let links = try rows(
            """
            SELECT p.path, o.path AS other FROM photos p LEFT JOIN photos o ON o.id = p.livePhotoId ORDER BY p.path
            """
        ).reduce(into: [String: String]()) { $0[$1["path"]] = $1["other"] }
        #expect(links == ["/p/IMG_1.HEIC": "/p/IMG_1.MOV", "/p/IMG_1.MOV": "/p/IMG_1.HEIC"])
    }
}
