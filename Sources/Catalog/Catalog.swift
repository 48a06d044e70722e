import Foundation
internal import GRDB
import PhotomillCore

/// The SQLite catalog of photos and their tasks, in WAL mode so that readers
/// (`photomill status`, exports) never block the coordinator's writes.
///
/// Writes are serialised by GRDB on the pool's writer; the coordinator calls them from
/// the one thread it owns for the catalog, never from Swift's cooperative pool.
public final class Catalog: Sendable {
    public let path: String
    let pool: DatabasePool

    public enum Mode: Sendable {
        /// Create the file if needed and migrate it to the current schema.
        case readWrite
        /// An existing catalog, never written (status, failed, search, export).
        case readOnly
    }

    public init(path: String, mode: Mode = .readWrite) throws(CatalogError) {
        self.path = path
        let exists = FileManager.default.fileExists(atPath: path)
        if mode == .readOnly && !exists {
            throw CatalogError(.missing, path: path, "no catalog here (run `photomill run` first, or pass --catalog)")
        }
        var configuration = Configuration()
        configuration.readonly = mode == .readOnly
        configuration.foreignKeysEnabled = true
        // A reader may meet a checkpoint; waiting a little beats failing.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // Durable enough for a catalog that can be rebuilt by re-processing, and
            // much faster: WAL + NORMAL syncs only at checkpoints.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw CatalogError(.unusable, path: path, "cannot open: \(error)", underlying: error)
        }
        do {
            let migrator = Schema.migrator
            let superseded = try pool.read { db in try migrator.hasBeenSuperseded(db) }
            if superseded {
                throw CatalogError(.newerSchema, path: path,
                                   "written by a newer photomill (unknown schema migrations); upgrade photomill to use it")
            }
            if mode == .readWrite {
                try migrator.migrate(pool)
            } else if try pool.read({ db in try !migrator.hasCompletedMigrations(db) }) {
                throw CatalogError(.unusable, path: path, "not a photomill catalog, or an older one: open it once with `photomill run` to upgrade it")
            }
        } catch let error as CatalogError {
            throw error
        } catch {
            throw CatalogError(.unusable, path: path, "cannot prepare: \(error)", underlying: error)
        }
    }

    /// Runs a write transaction; errors become `CatalogError` naming the file.
    func write<T>(_ body: (Database) throws -> T) throws(CatalogError) -> T {
        do {
            return try pool.write(body)
        } catch {
            throw CatalogError(.unusable, path: path, "write failed: \(error)", underlying: error)
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws(CatalogError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw CatalogError(.unusable, path: path, "read failed: \(error)", underlying: error)
        }
    }
}
