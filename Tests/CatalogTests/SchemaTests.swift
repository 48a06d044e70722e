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
    private func olderCatalog() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try Schema.migrator.migrate(queue, upTo: "v2-ops")
        try queue.write { db in
            for id in 1...3 {
                try db.execute(sql: "INSERT INTO photos (id, path, size, mtimeNs, scannedAt, changedAt) VALUES (?, ?, 10, 1, 1, 1)",
                               arguments: [id, "/p/\(id).jpg"])
            }
            try db.execute(sql: """
                INSERT INTO tasks (photoId, kind, state, attempts, leaseToken, leasedTo, updatedAt) VALUES
                    (1, 'hash', 'done', 1, NULL, NULL, 5), (1, 'ocr', 'failed', 3, NULL, NULL, 6),
                    (2, 'hash', 'leased', 1, 'tok', 'w1', 7), (2, 'thumbnail', 'pending', 0, NULL, NULL, 8),
                    (3, 'metadata', 'pending', 2, NULL, NULL, 9);
                INSERT INTO attempts (photoId, kind, worker, leaseToken, startedAt, endedAt, outcome, errorClass, errorMessage) VALUES
                    (1, 'hash', 'w1', 'a', 1, 2, 'done', NULL, NULL),
                    (1, 'ocr', 'w1', 'b', 1, 2, 'lease-expired', 'timeout', 'job ran past its deadline on worker w1'),
                    (3, 'metadata', 'w2', 'c', 3, 4, 'worker-lost', 'worker-crashed', 'worker w2 stopped answering'),
                    (3, 'metadata', 'w2', 'd', 5, 6, 'retry', 'timeout', '/p/3.mov: gave up demuxing after 20 s');
                """)
        }
        return queue
    }

    /// Everything but the attempts' error classes, which migration v5-protocol renames
    /// (`upgradeRenamesTheErrorClassesToTheSpecsNames`).
    private func dump(_ db: Database) throws -> [[Row]] {
        [try Row.fetchAll(db, sql: """
            SELECT photoId, kind, state, attempts, maxAttempts, notBefore, leaseToken, leasedTo, leasedAt, leaseExpires, recipe,
                errorClass, errorMessage, updatedAt FROM tasks ORDER BY photoId, kind
            """),
         try Row.fetchAll(db, sql: "SELECT id, photoId, kind, worker, leaseToken, startedAt, endedAt, outcome, errorMessage FROM attempts ORDER BY id"),
         try Row.fetchAll(db, sql: "SELECT kind, state, n FROM task_counts WHERE n > 0 ORDER BY kind, state")]
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
            let objects = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_schema WHERE tbl_name IN ('tasks', 'attempts') AND type IN ('index', 'trigger')
                    AND name NOT LIKE 'sqlite_autoindex%' ORDER BY name
                """)
            // No update trigger (Catalog counts changes of state itself) and no (kind, state)
            // index: failed tasks have a partial one.
            #expect(objects == ["attempts_ended", "attempts_photo", "tasks_counted_delete", "tasks_counted_insert",
                                "tasks_failed", "tasks_leased", "tasks_queue"])
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
        batch.results = [ReportedResult(result: TaskResult(photoId: 2, kind: .hash, leaseToken: "tok",
                                                           outcome: .hash(md5: "aa", sha256: "bb"), recipe: "r"),
                                        worker: "w1", startedAt: 7, endedAt: 8)]
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
            let refused = [
                "UPDATE tasks SET state = 'bogus' WHERE photoId = 1 AND kind = 'hash'",
                "INSERT INTO tasks (photoId, kind, updatedAt) VALUES (3, 'video', 1)",
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
            try db.execute(sql: "INSERT INTO attempts (photoId, kind, startedAt, endedAt, outcome) VALUES (1, 'hash', 1, 2, 'stale')")
            try db.execute(sql: "UPDATE tasks SET state = 'leased' WHERE photoId = 1 AND kind = 'hash'")
        }
    }
}
