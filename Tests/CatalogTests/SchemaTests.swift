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

/// The migrations themselves: what an upgrade keeps, and what the constraints still refuse.
@Suite struct SchemaTests {
    let path: String

    init() throws {
        path = try freshCatalogPath("schema")
    }

    /// A catalog as the last release before `v3-lean-task-writes` left it, with tasks
    /// in every state and attempts of several outcomes.
    private func olderCatalog(upTo migration: String = "v2-ops") throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try Schema.migrator.migrate(queue, upTo: migration)
        try queue.write { db in
            for id in 1...3 {
                try db.execute(
                    sql:
                        "INSERT INTO photos (id, path, size, mtimeNs, scannedAt, changedAt) VALUES (?, ?, 10, 1, 1, 1)",
                    arguments: [id, "/p/\(id).jpg"]
                )
            }
            try db.execute(
                sql: """
                    INSERT INTO tasks (photoId, kind, state, attempts, leaseToken, leasedTo, updatedAt) VALUES
                        (1, 'hash', 'done', 1, NULL, NULL, 5), (1, 'ocr', 'failed', 3, NULL, NULL, 6),
                        (2, 'hash', 'leased', 1, 'tok', 'w1', 7), (2, 'thumbnail', 'pending', 0, NULL, NULL, 8),
                        (3, 'metadata', 'pending', 2, NULL, NULL, 9);
                    INSERT INTO attempts (photoId, kind, worker, leaseToken, startedAt, endedAt, outcome, errorClass, errorMessage) VALUES
                        (1, 'hash', 'w1', 'a', 1, 2, 'done', NULL, NULL),
                        (1, 'ocr', 'w1', 'b', 1, 2, 'lease-expired', 'timeout', 'job ran past its deadline on worker w1'),
                        (3, 'metadata', 'w2', 'c', 3, 4, 'worker-lost', 'worker-crashed', 'worker w2 stopped answering'),
                        (3, 'metadata', 'w2', 'd', 5, 6, 'retry', 'timeout', '/p/3.mov: gave up demuxing after 20 s');
                    """
            )
        }
        return queue
    }

    /// Everything but the attempts' error classes, which migration v5-protocol renames
    /// (`upgradeRenamesTheErrorClassesToTheSpecsNames`).
    private func dump(_ db: Database) throws -> [[Row]] {
        [
            try Row.fetchAll(
                db,
                sql: """
                    SELECT photoId, kind, state, attempts, maxAttempts, notBefore, leaseToken, leasedTo, leasedAt, leaseExpires, recipe,
                        errorClass, errorMessage, updatedAt FROM tasks ORDER BY photoId, kind
                    """
            ),
            try Row.fetchAll(
                db,
                sql:
                    "SELECT id, photoId, kind, worker, leaseToken, startedAt, endedAt, outcome, errorMessage FROM attempts ORDER BY id"
            ),
            try Row.fetchAll(db, sql: "SELECT kind, state, n FROM task_counts WHERE n > 0 ORDER BY kind, state"),
        ]
    }

    /// Opcodes of `sql`: a statement that builds an ephemeral table shows `OpenEphemeral`.
    private func opcodes(_ db: Database, _ sql: String) throws -> [String] {
        try Row.fetchAll(db, sql: "EXPLAIN " + sql).map { $0["opcode"] }
    }

    @Test func upgradeKeepsEveryTaskAttemptAndCountAndItsIndexes() throws {
        let older = try olderCatalog()
        let before = try older.read(dump)
        try older.close()

        let catalog = try Catalog(path: path)
        try catalog.pool.read { db in
            #expect(try dump(db) == before)
            let objects = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_schema WHERE tbl_name IN ('tasks', 'attempts') AND type IN ('index', 'trigger')
                        AND name NOT LIKE 'sqlite_autoindex%' ORDER BY name
                    """
            )
            // No update trigger (Catalog counts changes of state itself) and no (kind, state)
            // index: failed tasks have a partial one.
            #expect(
                objects == [
                    "attempts_ended", "attempts_photo", "tasks_counted_delete", "tasks_counted_insert",
                    "tasks_failed", "tasks_leased", "tasks_queue",
                ]
            )
            // v7-steering: the older work keeps rank 0 (behind any later scan's); each task's
            // tier is its kind's.
            for row in try Row.fetchAll(db, sql: "SELECT kind, rank, tier FROM tasks") {
                #expect(row["rank"] == 0 as Int64)
                #expect(row["tier"] == Kind(rawValue: row["kind"])?.tier)
            }
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
        }
        // Counting works on the rebuilt table: the leased hash task's result.
        var batch = CommitBatch()
        batch.results = [
            ReportedResult(
                result: TaskResult(
                    photoId: 2,
                    kind: .hash,
                    leaseToken: "tok",
                    outcome: .hash(md5: "aa", sha256: "bb"),
                    recipe: "r"
                ),
                worker: "w1",
                startedAt: 7,
                endedAt: 8
            )
        ]
        #expect(try catalog.commit(batch, now: 8).committed == ["tok"])
        let counts = try catalog.status()
        #expect(counts.count(.hash, .done) == 2 && counts.count(.hash, .leased) == 0)
    }

    /// PROTOCOL.md's names for the coordinator's own classes: an expired lease's `timeout`
    /// (told by its message from a worker's own stage limit, which stays `timeout`) and
    /// `worker-crashed` become `lease-expired` and `worker-lost`.
    @Test func upgradeRenamesTheErrorClassesToTheSpecsNames() throws {
        try olderCatalog().close()
        let catalog = try Catalog(path: path)
        let classes = try catalog.pool.read { db in
            try String?.fetchAll(db, sql: "SELECT errorClass FROM attempts ORDER BY id")
        }
        #expect(classes == [nil, "lease-expired", "worker-lost", "timeout"])
    }

    /// The constraints refuse what they refused before, and the statements of a commit
    /// build no ephemeral table for them any more (the older schema's did: one each).
    @Test func checksRefuseUnknownValuesWithoutEphemeralTables() throws {
        let hot = [
            "UPDATE tasks SET state = 'done' WHERE photoId = 1 AND kind = 'hash'",
            "INSERT INTO attempts (photoId, kind, startedAt, endedAt, outcome) VALUES (1, 'hash', 1, 2, 'done')",
        ]
        let older = try olderCatalog()
        try older.read { db in
            for sql in hot {
                let ephemeral = try opcodes(db, sql).filter { $0 == "OpenEphemeral" }
                #expect(ephemeral.count == 1, "\(sql)")
            }
        }
        try older.close()

        let catalog = try Catalog(path: path)
        try catalog.pool.write { db in
            for sql in hot {
                let codes = try opcodes(db, sql)
                #expect(!codes.contains("OpenEphemeral"), "\(sql)")
            }
            // v9-kinds: `tasks.kind` has no CHECK (a new kind is no rebuild of the table).
            let refused = [
                "UPDATE tasks SET state = 'bogus' WHERE photoId = 1 AND kind = 'hash'",
                "INSERT INTO attempts (photoId, kind, startedAt, endedAt, outcome) VALUES (1, 'hash', 1, 2, 'bogus')",
            ]
            for sql in refused {
                do {
                    try db.execute(sql: sql)
                    Issue.record("accepted: \(sql)")
                } catch let error as DatabaseError {
                    #expect(error.resultCode == .SQLITE_CONSTRAINT, "\(sql)")
                }
            }
            try db.execute(
                sql:
                    "INSERT INTO attempts (photoId, kind, startedAt, endedAt, outcome) VALUES (1, 'hash', 1, 2, 'stale')"
            )
            try db.execute(sql: "UPDATE tasks SET state = 'leased' WHERE photoId = 1 AND kind = 'hash'")
        }
    }

    /// v9-kinds: a kind this code does not know is stored (photomill alone writes kinds),
    /// in tier 0; `regenerateTier`, for a migration that adds a kind outside tier 0, keeps
    /// every task, rebuilds the queue index, and the tiers still follow the descriptors.
    @Test func kindsAreNotCheckedAndTheTierColumnCanBeGeneratedAgain() throws {
        try olderCatalog().close()
        let catalog = try Catalog(path: path)
        try catalog.pool.write { db in
            try db.execute(sql: "INSERT INTO tasks (photoId, kind, updatedAt) VALUES (3, 'colour', 1)")
            #expect(try Int.fetchOne(db, sql: "SELECT tier FROM tasks WHERE kind = 'colour'") == 0)
            let before = try dump(db)
            try Schema.regenerateTier(db)
            #expect(try dump(db) == before)
            #expect(
                try String.fetchOne(db, sql: "SELECT name FROM sqlite_schema WHERE name = 'tasks_queue'")
                    == "tasks_queue"
            )
            for row in try Row.fetchAll(db, sql: "SELECT kind, tier FROM tasks WHERE kind != 'colour'") {
                #expect(row["tier"] == Kind(rawValue: row["kind"])?.tier)
            }
        }
    }

    /// v11-wait-codes: the sentences earlier coordinators stored become codes, read back as
    /// the reasons they said (written out here from the sentences); others are dropped.
    @Test func upgradeTurnsTheWaitSentencesIntoCodes() throws {
        let older = try olderCatalog(upTo: "v9-kinds")
        try older.write { db in
            try db.execute(
                sql: """
                    INSERT INTO waits (kind, reason) VALUES
                        ('hash', 'not asked for (--kinds metadata,ocr); a run without --kinds does them'),
                        ('metadata', 'no worker connected'),
                        ('ocr', 'no connected worker offers OCR in eng+deu (they offer deu, fra)'),
                        ('thumbnail', 'no connected worker offers thumbnail'),
                        ('video', 'a reason of another kind');
                    """
            )
        }
        try older.close()
        let catalog = try Catalog(path: path)
        #expect(
            try catalog.status().waiting == [
                .hash: .notAskedFor(asked: [.metadata, .ocr]), .metadata: .noWorkerConnected,
                .ocr: .languageNotOffered(language: "eng+deu", offered: ["deu", "fra"]), .thumbnail: .kindNotOffered,
            ]
        )
        var batch = CommitBatch()
        batch.waits = [.ocr: .languageNotOffered(language: "eng", offered: [])]
        _ = try catalog.commit(batch, now: 10)
        #expect(try catalog.status().waiting == [.ocr: .languageNotOffered(language: "eng", offered: [])])
    }

    /// v8-worker-version: rows of workers seen before keep everything and have no version;
    /// a worker's version is written with its row and read back as it was given.
    @Test func upgradeAddsTheWorkersSoftwareVersion() throws {
        let older = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(older, upTo: "v5-protocol")
        try older.write { db in
            try db.execute(
                sql: """
                    INSERT INTO workers (id, host, slots, kinds, ocrLanguages, state, connectedAt, lastSeen, done)
                    VALUES ('old', 'h1', 2, 'hash', '', 'gone', 1, 2, 7)
                    """
            )
        }
        try older.close()

        let catalog = try Catalog(path: path)
        let before = try #require(try catalog.status().workers.first)
        #expect(before.id == "old" && before.host == "h1" && before.done == 7 && before.softwareVersion == nil)
        var batch = CommitBatch()
        batch.workers = [
            WorkerRow(
                id: "new",
                host: "h2",
                softwareVersion: "photomill/0.2.0+0a5e650c1d2e",
                slots: 1,
                kinds: "hash",
                ocrLanguages: "",
                state: .connected,
                connectedAt: 3,
                lastSeen: 3,
                inFlight: 0,
                done: 0,
                failed: 0
            )
        ]
        _ = try catalog.commit(batch, now: 3)
        try catalog.pool.read { db in
            let stored = try Row.fetchAll(db, sql: "SELECT id, softwareVersion FROM workers ORDER BY id")
            #expect(
                stored.map { [$0["id"], $0["softwareVersion"]] as [String?] } == [
                    ["new", "photomill/0.2.0+0a5e650c1d2e"], ["old", nil],
                ]
            )
        }
    }

    /// A catalog of v8-worker-version (before main's v9-kinds and the living library's
    /// v10-living-library) takes both, in that order: its tasks keep their rows, its photos
    /// have no change time until a scan looks, its skipped files the reason they had then.
    @Test func aCatalogBeforeTheKindsTakesTheKindsAndThenTheLivingLibrary() throws {
        let older = try olderCatalog(upTo: "v8-worker-version")
        try older.write { db in
            try db.execute(
                sql: "INSERT INTO skipped_files (path, size, mtimeNs, scannedAt) VALUES ('/p/notes.txt', 3, 1, 1)"
            )
        }
        let before = try older.read(dump)
        try older.close()
        let catalog = try Catalog(path: path)
        try catalog.pool.read { db in
            #expect(try dump(db) == before)
            let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            #expect(
                Array(applied.suffix(5)) == [
                    "v10-living-library", "v11-wait-codes", "v12-similarity", "v13-similarity-detail",
                    "v14-similarity-covering",
                ]
            )
            #expect(
                try Row.fetchAll(db, sql: "SELECT ctimeNs, unsettledAt, excludedBy FROM photos").allSatisfy {
                    $0["ctimeNs"] == nil as Int64? && $0["unsettledAt"] == nil as Double?
                        && $0["excludedBy"] == nil as String?
                }
            )
            #expect(
                try Row.fetchAll(db, sql: "SELECT path, reason, detail FROM skipped_files").map {
                    [$0["path"], $0["reason"], $0["detail"]] as [String?]
                } == [["/p/notes.txt", "not-media", nil]]
            )
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM scan_requests") == 0)
        }
    }

    /// A catalog of the last schema before `application_id` (v5-protocol), recognised by its
    /// migrations: a reading command opens it, upgrading it first, and then it says it is
    /// photomill's.
    @Test func aCatalogFromBeforeTheApplicationIdIsRecognisedAndUpgraded() throws {
        let older = try olderCatalog(upTo: "v5-protocol")
        #expect(try older.read { db in try Int32.fetchOne(db, sql: "PRAGMA application_id") } == 0)
        let before = try older.read(dump)
        try older.close()
        let catalog = try Catalog(path: path, mode: .readOnly)
        let (after, id) = try catalog.pool.read { db in
            (try dump(db), try Int32.fetchOne(db, sql: "PRAGMA application_id"))
        }
        #expect(after == before)
        // "PMIL" read as a big-endian 32-bit integer, as SQLite stores the id.
        #expect(id == "PMIL".utf8.reduce(Int32(0)) { $0 << 8 | Int32($1) })
    }

    /// Another GRDB application's database with a `v1` migration and tables named `photos`
    /// and `tasks`: not photomill's, refused, and left as it was.
    @Test func aLookAlikeDatabaseOfAnotherApplicationIsRefusedUntouched() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql:
                    "CREATE TABLE photos (id INTEGER PRIMARY KEY, url TEXT); CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT)"
            )
        }
        let queue = try DatabaseQueue(path: path)
        try migrator.migrate(queue)
        try queue.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for mode in [Catalog.Mode.readOnly, .readWrite, .exclusive] {
            do {
                _ = try Catalog(path: path, mode: mode)
                Issue.record("opened in \(mode)")
            } catch {
                #expect(error.code == .notACatalog && error.message.contains("not a photomill catalog"), "\(error)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(
            !FileManager.default.fileExists(atPath: path + "-wal")
                && !FileManager.default.fileExists(atPath: path + "-lock")
        )
    }
}
