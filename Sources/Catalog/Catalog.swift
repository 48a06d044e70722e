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

/// The SQLite catalog of photos and their tasks, in WAL mode while it is open for writing,
/// so that readers (`photomill status`, exports) never block the coordinator's writes.
///
/// Writes are serialised by GRDB on the pool's writer; the coordinator calls them from
/// the one thread it owns for the catalog, never from Swift's cooperative pool.
public final class Catalog: Sendable {
    public let path: String
    let pool: DatabasePool
    private let mode: Mode
    private let lock: CatalogLock?
    private let busy: BusyWait
    private let closed = Once()

    public enum Mode: Sendable, Equatable {
        /// Create the file if needed and migrate it to the current schema.
        case readWrite
        /// `readWrite`, and this process the catalog's one coordinator (`run`,
        /// `coordinator`, or `forget`, which deletes rows a coordinator may be using) until
        /// `close()`: another gets `CatalogError.inUse`. Readers are never kept out.
        case exclusive
        /// An existing catalog, never written (status, failed, search, export); one of an
        /// older schema is upgraded first when this user may write it.
        case readOnly
    }

    /// `onBusy`: told when a write has waited a second for another process's lock on the
    /// file (a `sqlite3` shell, a backup), every 10 s after, and when it goes on. Writes
    /// wait as long as that lock is held, instead of failing with "database is locked".
    public init(
        path: String,
        mode: Mode = .readWrite,
        onBusy: (@Sendable (CatalogBusy) -> Void)? = nil
    ) throws(CatalogError) {
        self.path = path
        self.mode = mode
        let exists = FileManager.default.fileExists(atPath: path)
        if mode == .readOnly && !exists {
            throw CatalogError(.missing, path: path, "no catalog here (run `photomill run` first, or pass --catalog)")
        }
        // First the lock, so that a second coordinator changes nothing, not even the schema.
        let lock = mode == .exclusive ? try CatalogLock.acquire(catalog: path) : nil
        self.lock = lock
        busy = BusyWait(report: onBusy)
        do throws(CatalogError) {
            // Before GRDB opens a pool, which turns any SQLite file it may write to WAL mode.
            let identity: CatalogIdentity = exists ? try Self.identify(path) : .empty
            if identity == .empty && mode == .readOnly {
                throw CatalogError(
                    .missing,
                    path: path,
                    "an empty file, not a catalog yet (run `photomill run` first, or pass --catalog)"
                )
            }
            if identity == .older && mode == .readOnly { try Self.upgrade(path) }
            var configuration = Configuration()
            configuration.readonly = mode == .readOnly
            configuration.foreignKeysEnabled = true
            // A reader may meet a checkpoint; waiting a little beats failing.
            configuration.busyMode = mode == .readOnly ? .timeout(10) : .callback(busy.callback)
            if mode != .readOnly {
                configuration.prepareDatabase { db in
                    // Durable enough for a catalog that can be rebuilt by re-processing, and
                    // much faster: WAL + NORMAL syncs only at checkpoints.
                    try db.execute(sql: "PRAGMA synchronous = NORMAL")
                }
            }
            do {
                pool = try DatabasePool(path: path, configuration: configuration)
            } catch {
                throw CatalogError(error, path: path, doing: "cannot open")
            }
            try prepareSchema(mode: mode)
        } catch {
            lock?.release()
            throw error
        }
    }

    private func prepareSchema(mode: Mode) throws(CatalogError) {
        guard mode != .readOnly else { return }
        do {
            try Schema.migrator.migrate(pool)
        } catch {
            throw CatalogError(error, path: path, doing: "cannot prepare its tables")
        }
    }

    /// Closes the catalog: a catalog this process wrote is left as one file in SQLite's
    /// rollback-journal mode (its WAL checkpointed and removed), so that copying the file
    /// copies everything and a user who may not write the folder can still read it; when
    /// another process has it open, it stays in WAL mode for them. Then the lock goes.
    /// Further use of the catalog fails.
    public func close() {
        guard closed.first() else { return }
        busy.giveUp()
        try? pool.close()
        if mode != .readOnly, let queue = try? DatabaseQueue(path: path) {
            // Leaving WAL checkpoints it; it fails at once (busy) while others use the file.
            _ = try? queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            try? queue.close()
        }
        lock?.release()
    }

    /// Runs a write transaction; errors become `CatalogError` naming the file and the cause.
    func write<T>(_ body: (Database) throws -> T) throws(CatalogError) -> T {
        defer { busy.finished() }
        do {
            return try pool.write(body)
        } catch let error as CatalogError {
            throw error
        } catch {
            throw CatalogError(error, path: path, doing: "cannot write")
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws(CatalogError) -> T {
        do {
            return try pool.read(body)
        } catch let error as CatalogError {
            throw error
        } catch {
            throw CatalogError(error, path: path, doing: "cannot read")
        }
    }
}
