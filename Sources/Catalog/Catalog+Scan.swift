internal import GRDB
import PhotomillCore

/// A file found by the scanner, as stat(2) saw it.
public struct ScannedFile: Sendable, Hashable {
    public var path: String
    public var size: Int64
    public var mtimeNs: Int64

    public init(path: String, size: Int64, mtimeNs: Int64) {
        self.path = path
        self.size = size
        self.mtimeNs = mtimeNs
    }
}

public struct ScanSummary: Sendable, Hashable {
    public var added = 0
    public var changed = 0
    public var unchanged = 0
    /// Tasks created or re-queued by this scan.
    public var queuedTasks = 0

    public init() {}

    public static func + (lhs: ScanSummary, rhs: ScanSummary) -> ScanSummary {
        var sum = lhs
        sum.added += rhs.added
        sum.changed += rhs.changed
        sum.unchanged += rhs.unchanged
        sum.queuedTasks += rhs.queuedTasks
        return sum
    }
}

extension Catalog {
    /// Records a batch of scanned files in one transaction. A new path gets a photo and
    /// a pending task per kind; a path whose size or mtime changed has its results
    /// dropped and its tasks re-queued; an unchanged path creates no work (it only gains
    /// tasks for kinds it never had).
    public func record(_ files: [ScannedFile], kinds: Set<Kind>, now: Double) throws(CatalogError) -> ScanSummary {
        try write { db in
            var summary = ScanSummary()
            var changes = StateChanges()
            let find = try db.cachedStatement(sql: "SELECT id, size, mtimeNs FROM photos WHERE path = ?")
            let insertPhoto = try db.cachedStatement(sql: """
                INSERT INTO photos (path, size, mtimeNs, scannedAt, changedAt) VALUES (?, ?, ?, ?, ?)
                """)
            let insertTask = try db.cachedStatement(sql: """
                INSERT OR IGNORE INTO tasks (photoId, kind, updatedAt) VALUES (?, ?, ?)
                """)
            let sortedKinds = kinds.sorted()
            for file in files {
                if let row = try Row.fetchOne(find, arguments: [file.path]) {
                    let id: Int64 = row["id"]
                    if row["size"] == file.size && row["mtimeNs"] == file.mtimeNs {
                        summary.unchanged += 1
                        for kind in sortedKinds {
                            try insertTask.execute(arguments: [id, kind.rawValue, now])
                            summary.queuedTasks += db.changesCount
                        }
                    } else {
                        summary.changed += 1
                        try requeueChanged(db, id: id, file: file, kinds: sortedKinds, now: now, changes: &changes)
                        summary.queuedTasks += try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tasks WHERE photoId = ?", arguments: [id]) ?? 0
                    }
                } else {
                    summary.added += 1
                    try insertPhoto.execute(arguments: [file.path, file.size, file.mtimeNs, now, now])
                    let id = db.lastInsertedRowID
                    for kind in sortedKinds {
                        try insertTask.execute(arguments: [id, kind.rawValue, now])
                        summary.queuedTasks += 1
                    }
                }
            }
            try changes.write(db)
            return summary
        }
    }

    private func requeueChanged(_ db: Database, id: Int64, file: ScannedFile, kinds: [Kind], now: Double,
                                changes: inout StateChanges) throws {
        try db.execute(sql: """
            UPDATE photos SET size = ?, mtimeNs = ?, md5 = NULL, sha256 = NULL, scannedAt = ?, changedAt = ? WHERE id = ?
            """, arguments: [file.size, file.mtimeNs, now, now, id])
        for table in ["metadata", "thumbnails", "ocr"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE photoId = ?", arguments: [id])
        }
        // A lease still out on the old content becomes stale: its result is discarded.
        for row in try Row.fetchAll(db, sql: "SELECT kind, state FROM tasks WHERE photoId = ?", arguments: [id]) {
            changes.move(row[0] as String, from: row[1] as String, to: .pending)
        }
        try db.execute(sql: """
            UPDATE tasks SET state = 'pending', attempts = 0, notBefore = 0, leaseToken = NULL, leasedTo = NULL,
                leasedAt = NULL, leaseExpires = NULL, recipe = NULL, errorClass = NULL, errorMessage = NULL, updatedAt = ?
            WHERE photoId = ?
            """, arguments: [now, id])
        for kind in kinds {
            try db.execute(sql: "INSERT OR IGNORE INTO tasks (photoId, kind, updatedAt) VALUES (?, ?, ?)",
                           arguments: [id, kind.rawValue, now])
        }
    }

    /// Records a candidate the scanner could not even stat or open: its tasks fail at
    /// once with the reason, so it is never dropped silently.
    public func recordUnreadable(path: String, message: String, kinds: Set<Kind>, now: Double) throws(CatalogError) {
        try write { db in
            try db.execute(sql: """
                INSERT INTO photos (path, size, mtimeNs, scannedAt, changedAt) VALUES (?, 0, 0, ?, ?)
                ON CONFLICT(path) DO UPDATE SET scannedAt = excluded.scannedAt
                """, arguments: [path, now, now])
            let id = try Int64.fetchOne(db, sql: "SELECT id FROM photos WHERE path = ?", arguments: [path])!
            var changes = StateChanges()
            for kind in kinds.sorted() {
                // A new task is counted by the insert trigger; an existing one changes state here.
                if let old = try String.fetchOne(db, sql: "SELECT state FROM tasks WHERE photoId = ? AND kind = ?",
                                                 arguments: [id, kind.rawValue]), old != TaskState.leased.rawValue {
                    changes.move(kind.rawValue, from: old, to: .failed)
                }
                try db.execute(sql: """
                    INSERT INTO tasks (photoId, kind, state, errorClass, errorMessage, updatedAt)
                    VALUES (?, ?, 'failed', ?, ?, ?)
                    ON CONFLICT(photoId, kind) DO UPDATE SET state = 'failed', errorClass = excluded.errorClass,
                        errorMessage = excluded.errorMessage, updatedAt = excluded.updatedAt
                    WHERE state != 'leased'
                    """, arguments: [id, kind.rawValue, ErrorClass.unreadable.rawValue, message, now])
            }
            try changes.write(db)
        }
    }
}
