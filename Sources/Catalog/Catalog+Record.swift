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
internal import GRDB
import PhotomillCore

// What a scan found, written: `record`'s branches per file (unchanged, changed, new, moved,
// skipped, failed) and the steps they share. The look-ups a scan makes first, and the
// after-scan task checks, are in Catalog+Scan.swift. Over 450 lines with one job: the
// steps are private to `record`'s transaction; the next split is the re-queueing of a changed
// photo (`requeueChanged`, `rescanChanged`, `requeue`, ~90 lines), which the commit path also calls.
extension Catalog {
    /// Records a batch of scanned files in one transaction. A new photo gets a pending
    /// task per kind its media type has (videos have no OCR); a photo whose size, mtime or
    /// (the scanner having found its content changed) change time changed has its results
    /// dropped and its tasks re-queued; a photo whose sidecar changed has its metadata
    /// re-queued; an unchanged photo creates no work (it only gains tasks for kinds it never
    /// had). A file left out is recorded in `skipped_files` with its reason (and dropped
    /// from `photos` if it was a photo before); one named as media but empty or not media
    /// is a photo whose tasks fail at once.
    public func record(_ files: [ScannedFile], kinds: Set<Kind>, now: Double) throws(CatalogError) -> ScanSummary {
        try write { db in
            var summary = ScanSummary()
            var changes = StateChanges()
            let find = try db.cachedStatement(
                sql: """
                    SELECT id, size, mtimeNs, ctimeNs, format, sidecarPath, sidecarSize, sidecarMtimeNs, missingAt FROM photos WHERE path = ?
                    """
            )
            for file in files {
                let row = try Row.fetchOne(find, arguments: [file.path])
                if let row, row["missingAt"] != nil {
                    // Found again where it was: no longer missing (nor excluded).
                    try db.execute(
                        sql: "UPDATE photos SET missingAt = NULL, excludedBy = NULL WHERE id = ?",
                        arguments: [row["id"] as Int64]
                    )
                    try db.execute(sql: "DELETE FROM skipped_files WHERE path = ?", arguments: [file.path])
                }
                switch file.recognition {
                case .skipped(let reason, let detail):
                    summary.skipped += 1
                    if let row {
                        try db.execute(sql: "DELETE FROM photos WHERE id = ?", arguments: [row["id"] as Int64])
                    }
                    try recordSkipped(
                        db,
                        path: file.path,
                        reason: reason,
                        detail: detail,
                        size: file.size,
                        mtimeNs: file.mtimeNs,
                        now: now
                    )
                case .failed(let errorClass, let message):
                    if let row, row["size"] == file.size, row["mtimeNs"] == file.mtimeNs, row["format"] == nil,
                        try String.fetchOne(
                            db,
                            sql: "SELECT errorClass FROM tasks WHERE photoId = ? LIMIT 1",
                            arguments: [row["id"] as Int64]
                        ) == errorClass.rawValue
                    {
                        summary.unchanged += 1
                        continue
                    }
                    summary.failed += 1
                    try recordFailure(
                        db,
                        file: file,
                        errorClass: errorClass,
                        message: message,
                        kinds: kinds,
                        now: now,
                        changes: &changes
                    )
                case .unchanged:
                    guard let row, let format = (row["format"] as String?).flatMap(MediaFormat.init(rawValue:)) else {
                        summary.skipped += 1
                        continue
                    }
                    try keepUnchanged(
                        db,
                        id: row["id"],
                        row: row,
                        file: file,
                        wanted: format.mediaType.kinds(of: kinds),
                        kinds: kinds,
                        now: now,
                        changes: &changes,
                        summary: &summary
                    )
                case .media(let format):
                    let wanted = format.mediaType.kinds(of: kinds)
                    guard let row else {
                        if let id = file.movedFrom,
                            try movePhoto(
                                db,
                                id: id,
                                file: file,
                                format: format,
                                kinds: kinds,
                                now: now,
                                changes: &changes,
                                summary: &summary
                            )
                        {
                            summary.moved += 1
                            continue
                        }
                        summary.added += 1
                        summary.queuedTasks += try insertPhoto(db, file: file, format: format, kinds: wanted, now: now)
                        continue
                    }
                    let id: Int64 = row["id"]
                    let stamp = FileStamp(size: row["size"], mtimeNs: row["mtimeNs"])
                    let storedCtime: Int64? = row["ctimeNs"]
                    // Same size and mtime, another change time: the scanner compared the content, it changed.
                    let rewritten = storedCtime != nil && file.ctimeNs != nil && storedCtime != file.ctimeNs
                    if stamp == file.stamp && !rewritten {
                        // A photo of an older catalog, read for its format once.
                        try setFormat(db, id: id, path: file.path, format: format)
                        try keepUnchanged(
                            db,
                            id: id,
                            row: row,
                            file: file,
                            wanted: wanted,
                            kinds: kinds,
                            now: now,
                            changes: &changes,
                            summary: &summary
                        )
                    } else {
                        summary.changed += 1
                        try setFormat(db, id: id, path: file.path, format: format)
                        try requeueChanged(db, id: id, file: file, kinds: wanted, now: now, changes: &changes)
                        summary.queuedTasks +=
                            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tasks WHERE photoId = ?", arguments: [id])
                            ?? 0
                    }
                    // Tasks a photo's type does not have (an older catalog's OCR of a video) go.
                    for kind in Kind.allCases where !wanted.contains(kind) && kinds.contains(kind) {
                        try db.execute(
                            sql: "DELETE FROM tasks WHERE photoId = ? AND kind = ?",
                            arguments: [id, kind.rawValue]
                        )
                    }
                }
            }
            try changes.write(db)
            return summary
        }
    }

    /// A photo found as it was: its change time and whether it is still settling noted, the
    /// tasks of kinds it never had (`wanted`, of its type) created, its sidecar compared.
    private func keepUnchanged(
        _ db: Database,
        id: Int64,
        row: Row,
        file: ScannedFile,
        wanted: Set<Kind>,
        kinds: Set<Kind>,
        now: Double,
        changes: inout StateChanges,
        summary: inout ScanSummary
    ) throws {
        summary.unchanged += 1
        try db.execute(
            sql: "UPDATE photos SET ctimeNs = ?, unsettledAt = ? WHERE id = ?",
            arguments: [file.ctimeNs, file.unsettled ? now : nil, id]
        )
        summary.queuedTasks += try ensureTasks(db, id: id, kinds: wanted, now: now)
        try updateSidecar(
            db,
            id: id,
            row: row,
            file: file,
            kinds: kinds,
            now: now,
            changes: &changes,
            summary: &summary
        )
    }

    private func recordSkipped(
        _ db: Database,
        path: String,
        reason: SkipReason,
        detail: String?,
        size: Int64,
        mtimeNs: Int64,
        now: Double
    ) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO skipped_files (path, size, mtimeNs, scannedAt, reason, detail) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtimeNs = excluded.mtimeNs, scannedAt = excluded.scannedAt,
                    reason = excluded.reason, detail = excluded.detail
                """
        ).execute(arguments: [path, size, mtimeNs, now, reason.rawValue, detail])
    }

    /// A file named as media that is empty or not media: a photo of no format whose tasks
    /// fail at once with the class and message (its results, if it had any, go).
    private func recordFailure(
        _ db: Database,
        file: ScannedFile,
        errorClass: ErrorClass,
        message: String,
        kinds: Set<Kind>,
        now: Double,
        changes: inout StateChanges
    ) throws {
        try db.execute(sql: "DELETE FROM skipped_files WHERE path = ?", arguments: [file.path])
        try db.execute(
            sql: """
                INSERT INTO photos (path, size, mtimeNs, ctimeNs, scannedAt, changedAt) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtimeNs = excluded.mtimeNs, ctimeNs = excluded.ctimeNs,
                    scannedAt = excluded.scannedAt, changedAt = excluded.changedAt, missingAt = NULL, excludedBy = NULL,
                    format = NULL, mediaType = NULL, md5 = NULL, sha256 = NULL, livePhotoId = NULL
                """,
            arguments: [file.path, file.size, file.mtimeNs, file.ctimeNs, now, now]
        )
        let id = try Int64.fetchOne(db, sql: "SELECT id FROM photos WHERE path = ?", arguments: [file.path])!
        for table in ["metadata", "thumbnails", "ocr"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE photoId = ?", arguments: [id])
        }
        try failTasks(db, id: id, kinds: kinds, errorClass: errorClass, message: message, now: now, changes: &changes)
    }

    /// A new photo, its tasks and its Live Photo link; returns the tasks created.
    private func insertPhoto(
        _ db: Database,
        file: ScannedFile,
        format: MediaFormat,
        kinds: Set<Kind>,
        now: Double
    ) throws -> Int {
        try db.execute(sql: "DELETE FROM skipped_files WHERE path = ?", arguments: [file.path])
        try db.cachedStatement(
            sql: """
                INSERT INTO photos (path, size, mtimeNs, ctimeNs, scannedAt, changedAt, format, mediaType, stem,
                                    sidecarPath, sidecarSize, sidecarMtimeNs, unsettledAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            file.path, file.size, file.mtimeNs, file.ctimeNs, now, now, format.rawValue, format.mediaType.rawValue,
            Self.stem(of: file.path), file.sidecar?.path, file.sidecar?.size, file.sidecar?.mtimeNs,
            file.unsettled ? now : nil,
        ])
        let created = try ensureTasks(db, id: db.lastInsertedRowID, kinds: kinds, now: now)
        try linkLivePhotos(db, stem: Self.stem(of: file.path))
        return created
    }

    /// The photo `id` takes the path of `file`, its content found there (the scan compared
    /// it): its results and history stay. A new modification time re-runs the metadata
    /// (its `fileModificationDate`); a sidecar of another stamp too. False when the photo
    /// is no longer there to move (the caller then records the file as new).
    private func movePhoto(
        _ db: Database,
        id: Int64,
        file: ScannedFile,
        format: MediaFormat,
        kinds: Set<Kind>,
        now: Double,
        changes: inout StateChanges,
        summary: inout ScanSummary
    ) throws -> Bool {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT path, mtimeNs, sidecarPath, sidecarSize, sidecarMtimeNs FROM photos WHERE id = ? AND size = ?
                    """,
                arguments: [id, file.size]
            )
        else { return false }
        let oldStem = Self.stem(of: row["path"])
        try db.execute(sql: "DELETE FROM skipped_files WHERE path = ?", arguments: [file.path])
        try db.execute(
            sql: """
                UPDATE photos SET path = ?, mtimeNs = ?, ctimeNs = ?, scannedAt = ?, missingAt = NULL, excludedBy = NULL, format = ?,
                    mediaType = ?, stem = ?
                WHERE id = ?
                """,
            arguments: [
                file.path, file.mtimeNs, file.ctimeNs, now, format.rawValue, format.mediaType.rawValue,
                Self.stem(of: file.path), id,
            ]
        )
        try updateSidecar(
            db,
            id: id,
            row: row,
            file: file,
            kinds: kinds,
            now: now,
            changes: &changes,
            summary: &summary
        )
        if row["mtimeNs"] != file.mtimeNs && kinds.contains(.metadata)
            && format.mediaType.kinds(of: kinds).contains(.metadata)
        {
            try requeue(db, id: id, kind: .metadata, now: now, changes: &changes)
            summary.queuedTasks += 1
        }
        try linkLivePhotos(db, stem: oldStem)
        try linkLivePhotos(db, stem: Self.stem(of: file.path))
        return true
    }

    /// Tasks for kinds the photo never had; returns how many were created.
    private func ensureTasks(_ db: Database, id: Int64, kinds: Set<Kind>, now: Double) throws -> Int {
        let insertTask = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO tasks (photoId, kind, updatedAt, rank) VALUES (?, ?, ?, ?)"
        )
        var created = 0
        for kind in kinds.sorted() {
            try insertTask.execute(arguments: [id, kind.rawValue, now, TaskRank.scanned(at: now)])
            created += db.changesCount
        }
        return created
    }

    private func setFormat(_ db: Database, id: Int64, path: String, format: MediaFormat) throws {
        let stem = Self.stem(of: path)
        try db.execute(
            sql: "UPDATE photos SET format = ?, mediaType = ?, stem = ? WHERE id = ?",
            arguments: [format.rawValue, format.mediaType.rawValue, stem, id]
        )
        try linkLivePhotos(db, stem: stem)
    }

    /// Records the photo's sidecar as scanned; when it appeared, changed or vanished, the
    /// metadata is re-queued (the only kind a sidecar feeds), and counted in `summary`.
    private func updateSidecar(
        _ db: Database,
        id: Int64,
        row: Row,
        file: ScannedFile,
        kinds: Set<Kind>,
        now: Double,
        changes: inout StateChanges,
        summary: inout ScanSummary
    ) throws {
        let stored: Sidecar? = (row["sidecarPath"] as String?).map {
            Sidecar(path: $0, size: row["sidecarSize"] ?? 0, mtimeNs: row["sidecarMtimeNs"] ?? 0)
        }
        guard stored != file.sidecar else { return }
        try db.execute(
            sql: "UPDATE photos SET sidecarPath = ?, sidecarSize = ?, sidecarMtimeNs = ? WHERE id = ?",
            arguments: [file.sidecar?.path, file.sidecar?.size, file.sidecar?.mtimeNs, id]
        )
        guard kinds.contains(.metadata) else { return }
        try db.execute(sql: "DELETE FROM metadata WHERE photoId = ?", arguments: [id])
        try requeue(db, id: id, kind: .metadata, now: now, changes: &changes)
        summary.sidecarsChanged += 1
        summary.queuedTasks += 1
    }

    private func requeueChanged(
        _ db: Database,
        id: Int64,
        file: ScannedFile,
        kinds: Set<Kind>,
        now: Double,
        changes: inout StateChanges
    ) throws {
        try db.execute(
            sql: """
                UPDATE photos SET size = ?, mtimeNs = ?, ctimeNs = ?, md5 = NULL, sha256 = NULL, scannedAt = ?, changedAt = ?,
                    sidecarPath = ?, sidecarSize = ?, sidecarMtimeNs = ?, unsettledAt = ? WHERE id = ?
                """,
            arguments: [
                file.size, file.mtimeNs, file.ctimeNs, now, now, file.sidecar?.path, file.sidecar?.size,
                file.sidecar?.mtimeNs, file.unsettled ? now : nil, id,
            ]
        )
        for table in Payloads.tables {
            try db.execute(sql: "DELETE FROM \(table) WHERE photoId = ?", arguments: [id])
        }
        try requeue(db, id: id, kind: nil, now: now, changes: &changes)
        _ = try ensureTasks(db, id: id, kinds: kinds, now: now)
    }

    /// A worker (or the coordinator, about to send the bytes) found the photo changed since
    /// its scan (`file-changed`): PROTOCOL.md has the coordinator scan it again, here, in
    /// the transaction that records the failure. A file that did change gets the scan's
    /// treatment (new stamp, results dropped, every task pending with a fresh budget), but
    /// not before the settle window has passed (it may still be being written: the watcher
    /// scans it again when it settles, and the job is redone once); one whose stat still
    /// agrees with the catalog keeps the failure as an attempt, so a worker that misreads a
    /// file cannot loop for ever. A file gone is left to the next scan.
    func rescanChanged(_ db: Database, photoId: Int64, now: Double, changes: inout StateChanges) throws {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT path, size, mtimeNs, sidecarPath, sidecarSize, sidecarMtimeNs FROM photos WHERE id = ?
                    """,
                arguments: [photoId]
            )
        else { return }
        var info = stat()
        guard PathBytes.withCString(row["path"], { lstat($0, &info) }) == 0 else { return }
        let current = FileStamp(info)
        guard current != FileStamp(size: row["size"], mtimeNs: row["mtimeNs"]) else { return }
        let sidecar: Sidecar? = (row["sidecarPath"] as String?).map {
            Sidecar(path: $0, size: row["sidecarSize"] ?? 0, mtimeNs: row["sidecarMtimeNs"] ?? 0)
        }
        let file = ScannedFile(
            path: row["path"],
            size: current.size,
            mtimeNs: current.mtimeNs,
            ctimeNs: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
            recognition: .unchanged,
            sidecar: sidecar
        )
        try requeueChanged(db, id: photoId, file: file, kinds: [], now: now, changes: &changes)
        let settle = try Self.libraryWatch(db)?.watch.settleSeconds ?? LibraryWatch().settleSeconds
        try db.execute(
            sql: "UPDATE tasks SET notBefore = ? WHERE photoId = ? AND state = 'pending'",
            arguments: [now + settle, photoId]
        )
    }

    /// Puts the photo's tasks (all, or of `kind`) back to pending with a fresh budget. A
    /// lease still out on the old input becomes stale: its result is discarded.
    private func requeue(_ db: Database, id: Int64, kind: Kind?, now: Double, changes: inout StateChanges) throws {
        let which = kind == nil ? "photoId = ?" : "photoId = ? AND kind = ?"
        let arguments: StatementArguments = kind.map { [id, $0.rawValue] } ?? [id]
        for row in try Row.fetchAll(db, sql: "SELECT kind, state FROM tasks WHERE \(which)", arguments: arguments) {
            changes.move(row[0] as String, from: row[1] as String, to: .pending)
        }
        try db.execute(
            sql: """
                UPDATE tasks SET state = 'pending', attempts = 0, notBefore = 0, leaseToken = NULL, leasedTo = NULL,
                    leasedAt = NULL, leaseExpires = NULL, recipe = NULL, errorClass = NULL, errorMessage = NULL, updatedAt = ?,
                    rank = MIN(rank, ?)
                WHERE \(which)
                """,
            arguments: [now, TaskRank.scanned(at: now)] + arguments
        )
    }

    /// Live Photos: a still and a video of one name stem in one folder (`IMG_0001.HEIC`
    /// and `IMG_0001.MOV`) are linked to each other; a stem with any other mix (two stills,
    /// no video) links nothing. Whether their content identifiers agree is checked where
    /// the link is read (`livePhotoPath`), since metadata comes later than the scan.
    private func linkLivePhotos(_ db: Database, stem: String) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT id, mediaType FROM photos WHERE stem = ?", arguments: [stem])
        let stills = rows.filter { $0["mediaType"] == MediaType.photo.rawValue }
        let videos = rows.filter { $0["mediaType"] == MediaType.video.rawValue }
        try db.execute(
            sql: "UPDATE photos SET livePhotoId = NULL WHERE stem = ? AND livePhotoId IS NOT NULL",
            arguments: [stem]
        )
        guard stills.count == 1, videos.count == 1 else { return }
        let still: Int64 = stills[0]["id"]
        let video: Int64 = videos[0]["id"]
        try db.execute(sql: "UPDATE photos SET livePhotoId = ? WHERE id = ?", arguments: [video, still])
        try db.execute(sql: "UPDATE photos SET livePhotoId = ? WHERE id = ?", arguments: [still, video])
    }

    /// A path without its extension: `/p/IMG_0001.HEIC` → `/p/IMG_0001`.
    static func stem(of path: String) -> String { (path as NSString).deletingPathExtension }

    /// Records a file the scanner could not even stat or open: its tasks fail at once with
    /// the reason, so it is never dropped silently. Returns the photo's id.
    @discardableResult
    public func recordUnreadable(
        path: String,
        message: String,
        kinds: Set<Kind>,
        now: Double
    ) throws(CatalogError) -> Int64 {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO photos (path, size, mtimeNs, scannedAt, changedAt) VALUES (?, 0, 0, ?, ?)
                    ON CONFLICT(path) DO UPDATE SET scannedAt = excluded.scannedAt, missingAt = NULL, excludedBy = NULL
                    """,
                arguments: [path, now, now]
            )
            let id = try Int64.fetchOne(db, sql: "SELECT id FROM photos WHERE path = ?", arguments: [path])!
            var changes = StateChanges()
            try failTasks(
                db,
                id: id,
                kinds: kinds,
                errorClass: .unreadable,
                message: message,
                now: now,
                changes: &changes
            )
            try changes.write(db)
            return id
        }
    }

    /// The photo's tasks of `kinds` fail with this class and message (a leased one is left
    /// to its lease, which the scan's change makes stale).
    private func failTasks(
        _ db: Database,
        id: Int64,
        kinds: Set<Kind>,
        errorClass: ErrorClass,
        message: String,
        now: Double,
        changes: inout StateChanges
    ) throws {
        for kind in kinds.sorted() {
            // A new task is counted by the insert trigger; an existing one changes state here.
            if let old = try String.fetchOne(
                db,
                sql: "SELECT state FROM tasks WHERE photoId = ? AND kind = ?",
                arguments: [id, kind.rawValue]
            ), old != TaskState.leased.rawValue {
                changes.move(kind.rawValue, from: old, to: .failed)
            }
            try db.execute(
                sql: """
                    INSERT INTO tasks (photoId, kind, state, errorClass, errorMessage, updatedAt)
                    VALUES (?, ?, 'failed', ?, ?, ?)
                    ON CONFLICT(photoId, kind) DO UPDATE SET state = 'failed', errorClass = excluded.errorClass,
                        errorMessage = excluded.errorMessage, updatedAt = excluded.updatedAt
                    WHERE state != 'leased'
                    """,
                arguments: [id, kind.rawValue, errorClass.rawValue, message, now]
            )
        }
    }
}
