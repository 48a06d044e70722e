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
internal import GRDBSQLite
import PhotomillCore

/// A column of a set-based statement: its name, and the value a row gives it. The name
/// and the value are written together, once, so a statement's values cannot shift against
/// its columns; the SQL refers to the columns by these names, which SQLite checks when it
/// prepares the statement (`RowsStatementTests` prepares every one).
struct RowColumn<Row>: Sendable {
    let name: String
    let value: @Sendable (Row) -> DatabaseValue

    init(_ name: String, _ value: @escaping @Sendable (Row) -> DatabaseValue) {
        self.name = name
        self.value = value
    }
}

/// A statement that writes many rows at once, each row a `Row` value bound column by column:
/// `INSERT INTO t (a, b) VALUES (…), (…)`, or `WITH v(a, b) AS (VALUES (…), (…)) UPDATE t
/// SET … = v.a FROM v WHERE …`, the rows a source with the columns' names. One statement
/// for a batch's rows instead of one each saves SQLite's per-statement work
/// (docs/benchmarks.md, "Set-based commits").
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
struct RowsStatement<Row>: Sendable {
    let columns: [RowColumn<Row>]
    /// The table an INSERT writes.
    let table: String?
    /// The SQL for `rows` rows.
    private let sql: @Sendable (_ rows: Int) -> String
    /// Whether it ends with RETURNING.
    private let returnsRows: Bool

    private static var chunks: [Int] { [256, 64, 16, 4, 1] }

    /// `INSERT INTO table (columns) VALUES …` (`INSERT OR REPLACE` with `replacing`), then
    /// `suffix` (an upsert's ON CONFLICT).
    static func insert(
        into table: String,
        replacing: Bool = false,
        _ columns: [RowColumn<Row>],
        _ suffix: String = ""
    ) -> RowsStatement {
        let head = (replacing ? "INSERT OR REPLACE INTO " : "INSERT INTO ") + table
        let names = columns.map(\.name).joined(separator: ", ")
        let width = columns.count
        return RowsStatement(
            columns: columns,
            table: table,
            sql: { rows in
                "\(head) (\(names)) VALUES \(placeholders(rows: rows, width: width))"
                    + (suffix.isEmpty ? "" : " " + suffix)
            },
            returnsRows: false
        )
    }

    /// `WITH v(columns) AS (VALUES …)` and then `statement`, which reads the rows from `v`
    /// by the columns' names. A `RETURNING photoId, kind` hands each changed row to `run`'s
    /// `returned`.
    static func from(_ columns: [RowColumn<Row>], returning: Bool = false, _ statement: String) -> RowsStatement {
        let names = columns.map(\.name).joined(separator: ", ")
        let width = columns.count
        return RowsStatement(
            columns: columns,
            table: nil,
            sql: { rows in
                "WITH v(\(names)) AS (VALUES \(placeholders(rows: rows, width: width))) " + statement
            },
            returnsRows: returning
        )
    }

    /// Runs the statement over `rows`; `after` binds the parameters written after the rows
    /// (in the statement that follows them). `returned` gets each row of a RETURNING as (its
    /// first column as an integer, its second as text).
    func run(
        _ db: Database,
        _ rows: [Row],
        after: [DatabaseValue] = [],
        returned: (Int64, String) throws -> Void = { _, _ in }
    ) throws {
        var start = 0
        for chunk in Self.chunks {
            while rows.count - start >= chunk {
                let statement = try db.cachedStatement(sql: sql(chunk))
                try execute(
                    statement.sqliteStatement,
                    rows[start..<start + chunk],
                    after: after,
                    db: db,
                    returned: returned
                )
                start += chunk
            }
        }
    }

    private func execute(
        _ handle: SQLiteStatement,
        _ rows: ArraySlice<Row>,
        after: [DatabaseValue],
        db: Database,
        returned: (Int64, String) throws -> Void
    ) throws {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        sqlite3_reset(handle)
        var index: Int32 = 1
        for row in rows {
            for column in columns {
                try Self.bind(column.value(row), at: index, handle, db)
                index += 1
            }
        }
        for value in after {
            try Self.bind(value, at: index, handle, db)
            index += 1
        }
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_DONE:
                return
            case SQLITE_ROW where returnsRows:
                let text = sqlite3_column_text(handle, 1).map { String(cString: $0) } ?? ""
                try returned(sqlite3_column_int64(handle, 0), text)
            case SQLITE_ROW:
                continue
            case let code:
                throw Self.failure(code, handle, db)
            }
        }
    }

    private static func bind(_ value: DatabaseValue, at index: Int32, _ handle: SQLiteStatement, _ db: Database) throws
    {
        let code: Int32
        switch value.storage {
        case .null: code = sqlite3_bind_null(handle, index)
        case .int64(let integer): code = sqlite3_bind_int64(handle, index, integer)
        case .double(let real): code = sqlite3_bind_double(handle, index, real)
        case .string(var text):
            code = text.withUTF8 { sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), transient) }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { raw in
                raw.isEmpty
                    ? sqlite3_bind_zeroblob(handle, index, 0)
                    : sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(raw.count), transient)
            }
        }
        guard code == SQLITE_OK else { throw failure(code, handle, db) }
    }

    private static func failure(_ code: Int32, _ handle: SQLiteStatement, _ db: Database) -> DatabaseError {
        let message = db.sqliteConnection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return DatabaseError(
            resultCode: ResultCode(rawValue: code),
            message: message,
            sql: sqlite3_sql(handle).map { String(cString: $0) }
        )
    }

    /// SQLite copies what is bound (the values are gone once `execute` returns).
    private static var transient: sqlite3_destructor_type {
        unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    }

    private static func placeholders(rows: Int, width: Int) -> String {
        let row = "(" + Array(repeating: "?", count: width).joined(separator: ",") + ")"
        return Array(repeating: row, count: rows).joined(separator: ",")
    }
}
