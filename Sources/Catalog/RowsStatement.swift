internal import GRDB
import PhotomillCore

/// A statement that writes many rows at once: `INSERT … VALUES (…), (…)` or `UPDATE … FROM
/// (VALUES …) AS v` (`v.column1` is a row's first value). One statement for a batch's rows
/// instead of one each saves SQLite's per-statement work and GRDB's per-call overhead,
/// which were most of the cost of a commit (docs/benchmarks.md, "Set-based commits").
///
/// Rows go in chunks of 256, 64, 16, 4 and 1, so that whatever the batch's size SQLite
/// prepares (and GRDB caches) at most five shapes of each statement, and no statement
/// nears SQLite's limit of 32,766 parameters.
struct RowsStatement {
    /// Values per row.
    let width: Int
    /// The SQL, given the VALUES list (`(?, ?), (?, ?)`).
    let sql: @Sendable (String) -> String
    /// Whether it ends with RETURNING.
    var returnsRows = false

    private static let chunks = [256, 64, 16, 4, 1]

    /// Runs the statement over `values`, `width` of them a row; `leading` binds the
    /// parameters written before the VALUES list. `returned` gets each row of a RETURNING.
    func run(_ db: Database, leading: [DatabaseValue] = [], values: [DatabaseValue],
             returned: (Row) throws -> Void = { _ in }) throws {
        precondition(values.count % width == 0, "whole rows")
        var start = 0
        for chunk in Self.chunks {
            while values.count - start >= chunk * width {
                let end = start + chunk * width
                let statement = try db.cachedStatement(sql: sql(Self.placeholders(rows: chunk, width: width)))
                let arguments = StatementArguments(leading + values[start..<end])
                if returnsRows {
                    let rows = try Row.fetchCursor(statement, arguments: arguments)
                    while let row = try rows.next() { try returned(row) }
                } else {
                    try statement.execute(arguments: arguments)
                }
                start = end
            }
        }
    }

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

    /// Each row (photoId, kind, worker, leaseToken, startedAt, endedAt, outcome,
    /// errorClass, errorMessage).
    static let attempts = RowsStatement(width: 9) { values in """
        INSERT INTO attempts (photoId, kind, worker, leaseToken, startedAt, endedAt, outcome, errorClass, errorMessage)
        VALUES \(values)
        """ }
}
