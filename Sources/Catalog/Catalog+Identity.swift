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

/// What an existing file given as a catalog is.
enum CatalogIdentity: Equatable {
    /// An empty SQLite file (or 0 bytes): becomes a new catalog.
    case empty
    /// A photomill catalog that knows every migration it needs.
    case current
    /// A photomill catalog of an older schema (migrations to run).
    case older
}

extension Catalog {
    /// Tells a photomill catalog from anything else before anything writes to it: by its
    /// SQLite `application_id`; a catalog made before that was set (migration v6-accidents)
    /// by its migrations table, which holds `v1` and only photomill's older migrations, and
    /// its `tasks` table with photomill's lease columns. Anything else is refused whole.
    static func identify(_ path: String) throws(CatalogError) -> CatalogIdentity {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                let tables = try String.fetchAll(
                    db,
                    sql: "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"
                )
                if id == Schema.applicationId {
                    if try Schema.migrator.hasBeenSuperseded(db) {
                        throw CatalogError(
                            .newerSchema,
                            path: path,
                            "written by a newer photomill (unknown schema migrations); upgrade photomill to use it"
                        )
                    }
                    return try Schema.migrator.hasCompletedMigrations(db) ? .current : .older
                }
                if id == 0 && tables.isEmpty { return .empty }
                if id == 0, try isPhotomillBeforeApplicationId(db, tables: tables) { return .older }
                let what =
                    id != 0
                    ? "another application's SQLite database (application_id \(String(format: "0x%08X", id)))"
                    : "an SQLite database of another application (its tables: \(tables.prefix(5).joined(separator: ", "))\(tables.count > 5 ? ", …" : ""))"
                throw CatalogError(
                    .notACatalog,
                    path: path,
                    """
                    not a photomill catalog: \(what); photomill leaves it untouched. Pass --catalog with a photomill \
                    catalog, or a new file name
                    """
                )
            }
        } catch let error as CatalogError {
            throw error
        } catch {
            throw CatalogError(error, path: path, doing: "cannot open")
        }
    }

    private static func isPhotomillBeforeApplicationId(_ db: Database, tables: [String]) throws -> Bool {
        guard tables.contains("grdb_migrations"), tables.contains("tasks") else { return false }
        let applied = Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
        guard applied.contains("v1"), applied.isSubset(of: Schema.migrationsBeforeApplicationId) else { return false }
        return try db.columns(in: "tasks").contains { $0.name == "leaseToken" }
    }

    /// A reading command given a catalog of an older schema upgrades it first (a command
    /// that writes does so anyway), so that upgrading photomill never leaves `status`
    /// refusing the catalog until the next `run`.
    static func upgrade(_ path: String) throws(CatalogError) {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(30)
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            try Schema.migrator.migrate(queue)
        } catch {
            let cause = CatalogError(error, path: path, doing: "cannot upgrade it")
            throw CatalogError(
                cause.code,
                path: path,
                """
                written by an older photomill, and this user may not upgrade it (\(cause.message)); \
                run `photomill status` once as a user who may write it
                """,
                underlying: error
            )
        }
    }
}
