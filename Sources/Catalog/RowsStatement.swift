internal import GRDB
internal import GRDBSQLite
import Foundation
import PhotomillCore

/// A statement that writes many rows at once: `INSERT … VALUES (…), (…)` or `UPDATE … FROM
/// (VALUES …) AS v` (`v.column1` is a row's first value). One statement for a batch's rows
/// instead of one each saves SQLite's per-statement work (docs/benchmarks.md, "Set-based
/// commits").
///
/// Rows go in chunks of 256, 64, 16, 4 and 1, so that whatever the batch's size SQLite
/// prepares (and GRDB caches) at most five shapes of each statement, and no statement
/// nears SQLite's limit of 32,766 parameters.
///
/// Values are bound, and the statement stepped, through SQLite's C API: GRDB's
/// `StatementArguments`, built from a sequence of values, cost more than SQLite's own
/// work on them (callgrind: 27,000 instructions a result for the arguments, 17,000 more
/// to bind them through GRDB). The statement is GRDB's cached one, run inside GRDB's
/// transaction, and left reset with its bindings cleared; nothing observes the catalog's
/// transactions (no GRDB observer is registered), which is what GRDB's own execution path
/// would also notify.
struct RowsStatement {
    /// Values per row.
    let width: Int
    /// The SQL, given the VALUES list (`(?, ?), (?, ?)`).
    let sql: @Sendable (String) -> String
    /// Whether it ends with RETURNING.
    var returnsRows = false

    private static let chunks = [256, 64, 16, 4, 1]

    /// Runs the statement over `values`, `width` of them a row; `leading` binds the
    /// parameters written before the VALUES list. `returned` gets each row of a
    /// RETURNING as (its first column as an integer, its second as text).
    func run(_ db: Database, leading: [DatabaseValue] = [], values: [DatabaseValue],
             returned: (Int64, String) throws -> Void = { _, _ in }) throws {
        precondition(values.count % width == 0, "whole rows")
        var start = 0
        for chunk in Self.chunks {
            while values.count - start >= chunk * width {
                let end = start + chunk * width
                let statement = try db.cachedStatement(sql: sql(Self.placeholders(rows: chunk, width: width)))
                try Self.execute(statement.sqliteStatement, leading + values[start..<end], returning: returnsRows, db: db,
                                 returned: returned)
                start = end
            }
        }
    }

    private static func execute(_ handle: SQLiteStatement, _ values: [DatabaseValue], returning: Bool, db: Database,
                                returned: (Int64, String) throws -> Void) throws {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        sqlite3_reset(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value.storage {
            case .null: code = sqlite3_bind_null(handle, index)
            case .int64(let integer): code = sqlite3_bind_int64(handle, index, integer)
            case .double(let real): code = sqlite3_bind_double(handle, index, real)
            case .string(var text): code = text.withUTF8 { sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), transient) }
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { raw in
                    raw.isEmpty ? sqlite3_bind_zeroblob(handle, index, 0) : sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(raw.count), transient)
                }
            }
            guard code == SQLITE_OK else { throw failure(code, handle, db) }
        }
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_DONE:
                return
            case SQLITE_ROW where returning:
                let text = sqlite3_column_text(handle, 1).map { String(cString: $0) } ?? ""
                try returned(sqlite3_column_int64(handle, 0), text)
            case SQLITE_ROW:
                continue
            case let code:
                throw failure(code, handle, db)
            }
        }
    }

    private static func failure(_ code: Int32, _ handle: SQLiteStatement, _ db: Database) -> DatabaseError {
        let message = db.sqliteConnection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message,
                             sql: sqlite3_sql(handle).map { String(cString: $0) })
    }

    /// SQLite copies what is bound (the values are gone once `execute` returns).
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    private static func placeholders(rows: Int, width: Int) -> String {
        let row = "(" + Array(repeating: "?", count: width).joined(separator: ",") + ")"
        return Array(repeating: row, count: rows).joined(separator: ",")
    }
}

extension RowsStatement {
    /// Leases, each row (photoId, kind, token, worker, leasedAt, expiresAt), after `now`:
    /// only a task still pending is leased; returns (photoId, kind) of those that were.
    static let lease = RowsStatement(width: 6, sql: { values in """
        UPDATE tasks SET state = 'leased', attempts = attempts + 1, leaseToken = v.column3, leasedTo = v.column4,
            leasedAt = v.column5, leaseExpires = v.column6, updatedAt = ?
        FROM (VALUES \(values)) AS v
        WHERE tasks.photoId = v.column1 AND tasks.kind = v.column2 AND tasks.state = 'pending'
        RETURNING photoId, kind
        """ }, returnsRows: true)

    /// Successes, each row (photoId, kind, token, recipe, folded, pagedUpdatedAt), after
    /// `now`. The exactly-once check, per row: a written lease still leased under its
    /// token, or (folded: its lease in the same batch, never written) a task still pending
    /// as its job was paged. Returns (photoId, kind) of the tasks it ended; every other
    /// row's result is stale.
    static let done = RowsStatement(width: 6, sql: { values in """
        UPDATE tasks SET state = 'done', attempts = attempts + v.column5, recipe = v.column4, leaseToken = NULL,
            leasedTo = NULL, leasedAt = NULL, leaseExpires = NULL, errorClass = NULL, errorMessage = NULL, updatedAt = ?
        FROM (VALUES \(values)) AS v
        WHERE tasks.photoId = v.column1 AND tasks.kind = v.column2
            AND CASE v.column5 WHEN 0 THEN tasks.state = 'leased' AND tasks.leaseToken = v.column3
                ELSE tasks.state = 'pending' AND tasks.updatedAt = v.column6 END
        RETURNING photoId, kind
        """ }, returnsRows: true)

    /// EXTENDs, each row (token, expiresAt).
    static let extend = RowsStatement(width: 2) { values in """
        UPDATE tasks SET leaseExpires = v.column2 FROM (VALUES \(values)) AS v
        WHERE tasks.leaseToken = v.column1 AND tasks.state = 'leased'
        """ }

    /// Each row (photoId, md5, sha256).
    static let hashes = RowsStatement(width: 3) { values in """
        UPDATE photos SET md5 = v.column2, sha256 = v.column3 FROM (VALUES \(values)) AS v WHERE photos.id = v.column1
        """ }

    /// Each row (photoId, recipe, the columns of `PhotoMetadata.columns`).
    static let metadata = RowsStatement(width: 2 + PhotoMetadata.columns.count) { values in """
        INSERT OR REPLACE INTO metadata (photoId, recipe, \(PhotoMetadata.columns.joined(separator: ", "))) VALUES \(values)
        """ }

    /// Each row (photoId, width, height, jpeg, recipe).
    static let thumbnails = RowsStatement(width: 5) { values in """
        INSERT OR REPLACE INTO thumbnails (photoId, width, height, jpeg, recipe) VALUES \(values)
        """ }

    /// Each row (photoId, text, confidence, language, recipe). An upsert, not INSERT OR
    /// REPLACE: REPLACE's implicit delete fires no trigger, and the FTS index would keep
    /// the old text's words.
    static let ocr = RowsStatement(width: 5) { values in """
        INSERT INTO ocr (photoId, text, confidence, language, recipe) VALUES \(values)
        ON CONFLICT(photoId) DO UPDATE SET text = excluded.text, confidence = excluded.confidence,
            language = excluded.language, recipe = excluded.recipe
        """ }

    /// Each row (photoId, hash, recipe): the chunks the index looks up are generated.
    static let similarity = RowsStatement(width: 3) { values in """
        INSERT OR REPLACE INTO similarity (photoId, hash, recipe) VALUES \(values)
        """ }

    /// Each row (photoId, kind, worker, leaseToken, startedAt, endedAt, outcome,
    /// errorClass, errorMessage).
    static let attempts = RowsStatement(width: 9) { values in """
        INSERT INTO attempts (photoId, kind, worker, leaseToken, startedAt, endedAt, outcome, errorClass, errorMessage)
        VALUES \(values)
        """ }
}
