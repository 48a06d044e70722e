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

internal import GRDB
import PhotomillCore

/// The catalog's migrations. Append new migrations; never edit a shipped one.
/// One file over 450 lines on purpose: the migrations in their order, each the tables as they
/// were at its version, read top to bottom; split, the order would live in two places.
/// docs/catalog.md describes every column.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE photos (
                        id INTEGER PRIMARY KEY,
                        path TEXT NOT NULL UNIQUE,
                        size INTEGER NOT NULL,
                        mtimeNs INTEGER NOT NULL,
                        md5 TEXT,
                        sha256 TEXT,
                        scannedAt REAL NOT NULL,
                        changedAt REAL NOT NULL
                    );
                    CREATE INDEX photos_md5 ON photos(md5) WHERE md5 IS NOT NULL;

                    CREATE TABLE tasks (
                        photoId INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL CHECK (kind IN ('hash', 'metadata', 'thumbnail', 'ocr')),
                        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'leased', 'done', 'failed')),
                        attempts INTEGER NOT NULL DEFAULT 0,
                        maxAttempts INTEGER NOT NULL DEFAULT 3,
                        notBefore REAL NOT NULL DEFAULT 0,
                        leaseToken TEXT,
                        leasedTo TEXT,
                        leasedAt REAL,
                        leaseExpires REAL,
                        recipe TEXT,
                        errorClass TEXT,
                        errorMessage TEXT,
                        updatedAt REAL NOT NULL,
                        PRIMARY KEY (photoId, kind)
                    ) WITHOUT ROWID;
                    CREATE INDEX tasks_pending ON tasks(photoId) WHERE state = 'pending';
                    CREATE INDEX tasks_leased ON tasks(leaseToken) WHERE state = 'leased';
                    CREATE INDEX tasks_kind_state ON tasks(kind, state);

                    CREATE TABLE attempts (
                        id INTEGER PRIMARY KEY,
                        photoId INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL,
                        worker TEXT,
                        leaseToken TEXT,
                        startedAt REAL NOT NULL,
                        endedAt REAL NOT NULL,
                        outcome TEXT NOT NULL CHECK (outcome IN ('done', 'failed', 'retry', 'lease-expired', 'worker-lost', 'stale')),
                        errorClass TEXT,
                        errorMessage TEXT
                    );
                    CREATE INDEX attempts_photo ON attempts(photoId, kind);

                    CREATE TABLE metadata (
                        photoId INTEGER PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
                        dateTaken TEXT,
                        fileModificationDate TEXT,
                        pixelWidth INTEGER,
                        pixelHeight INTEGER,
                        cameraMake TEXT,
                        cameraModel TEXT,
                        orientation INTEGER,
                        gpsLatitude REAL,
                        gpsLongitude REAL,
                        aperture REAL,
                        shutterSpeed REAL,
                        iso INTEGER,
                        focalLength REAL,
                        lensModel TEXT,
                        recipe TEXT NOT NULL
                    );

                    CREATE TABLE thumbnails (
                        photoId INTEGER PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
                        width INTEGER NOT NULL,
                        height INTEGER NOT NULL,
                        jpeg BLOB NOT NULL,
                        recipe TEXT NOT NULL
                    );

                    CREATE TABLE ocr (
                        photoId INTEGER PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
                        text TEXT NOT NULL,
                        confidence REAL NOT NULL,
                        language TEXT NOT NULL,
                        recipe TEXT NOT NULL
                    );
                    CREATE VIRTUAL TABLE ocr_fts USING fts5(text, content='ocr', content_rowid='photoId');
                    CREATE TRIGGER ocr_ai AFTER INSERT ON ocr BEGIN
                        INSERT INTO ocr_fts(rowid, text) VALUES (new.photoId, new.text);
                    END;
                    CREATE TRIGGER ocr_ad AFTER DELETE ON ocr BEGIN
                        INSERT INTO ocr_fts(ocr_fts, rowid, text) VALUES ('delete', old.photoId, old.text);
                    END;
                    CREATE TRIGGER ocr_au AFTER UPDATE ON ocr BEGIN
                        INSERT INTO ocr_fts(ocr_fts, rowid, text) VALUES ('delete', old.photoId, old.text);
                        INSERT INTO ocr_fts(rowid, text) VALUES (new.photoId, new.text);
                    END;

                    CREATE TABLE workers (
                        id TEXT PRIMARY KEY,
                        host TEXT NOT NULL,
                        slots INTEGER NOT NULL,
                        kinds TEXT NOT NULL,
                        ocrLanguages TEXT NOT NULL,
                        state TEXT NOT NULL CHECK (state IN ('connected', 'gone')),
                        connectedAt REAL NOT NULL,
                        lastSeen REAL NOT NULL,
                        inFlight INTEGER NOT NULL DEFAULT 0,
                        done INTEGER NOT NULL DEFAULT 0,
                        failed INTEGER NOT NULL DEFAULT 0
                    );
                    """
            )
        }
        // Why tasks of a kind wait (no connected worker offers it), kept by the
        // coordinator for `photomill status`.
        migrator.registerMigration("v2-routing") { db in
            try db.execute(
                sql: """
                    CREATE TABLE waits (
                        kind TEXT PRIMARY KEY,
                        reason TEXT NOT NULL
                    );
                    """
            )
        }
        migrator.registerMigration("v2-violations") { db in
            try db.execute(
                sql: """
                    CREATE TABLE violations (
                        reason TEXT PRIMARY KEY,
                        count INTEGER NOT NULL,
                        lastAt REAL NOT NULL
                    );
                    """
            )
        }
        migrator.registerMigration("v2-ops") { db in
            // status: throughput over the last minute reads only that minute's attempts, and
            // the counts per kind and state come from task_counts, kept by triggers, instead
            // of counting a million rows. requeues: what retry and reprocess did, and the
            // coordinator's signal to look again from the first photo (docs/catalog.md).
            try db.execute(
                sql: """
                    CREATE INDEX attempts_ended ON attempts(endedAt, kind, outcome, startedAt);
                    CREATE TABLE requeues (
                        id INTEGER PRIMARY KEY,
                        at REAL NOT NULL,
                        command TEXT NOT NULL,
                        filter TEXT NOT NULL,
                        tasks INTEGER NOT NULL
                    );

                    CREATE TABLE task_counts (
                        kind TEXT NOT NULL,
                        state TEXT NOT NULL,
                        n INTEGER NOT NULL,
                        PRIMARY KEY (kind, state)
                    ) WITHOUT ROWID;
                    INSERT INTO task_counts (kind, state, n) SELECT kind, state, COUNT(*) FROM tasks GROUP BY kind, state;
                    """ + taskCountInsertDeleteTriggers + """
                        CREATE TRIGGER tasks_counted_update AFTER UPDATE OF kind, state ON tasks
                        WHEN old.kind != new.kind OR old.state != new.state BEGIN
                            UPDATE task_counts SET n = n - 1 WHERE kind = old.kind AND state = old.state;
                            INSERT INTO task_counts (kind, state, n) VALUES (new.kind, new.state, 1)
                                ON CONFLICT (kind, state) DO UPDATE SET n = n + 1;
                        END;
                        """
            )
        }
        migrator.registerMigration("v3-lean-task-writes") { db in
            // What each committed result cost in SQLite work, and what replaces it:
            // - A CHECK (x IN (…)) of more than two constants makes SQLite build an
            //   ephemeral table each time a statement writing x runs: two per result (the
            //   task's state, the attempt's outcome). The same constraints as comparisons.
            // - The update trigger on tasks ran per row; Catalog counts the changes of
            //   state it makes itself (StateChanges). Inserts and deletes keep theirs.
            // - The (kind, state) index changed with every task; only the failed tasks
            //   are looked up by kind (`failed`, `retry`): a partial index of those.
            // SQLite cannot alter a CHECK: both tables are rebuilt (their indexes and
            // triggers with them). The migrator turns foreign keys off meanwhile and checks
            // them after.
            try db.execute(
                sql: """
                    CREATE TABLE tasks_new (
                        photoId INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL CHECK (kind = 'hash' OR kind = 'metadata' OR kind = 'thumbnail' OR kind = 'ocr'),
                        state TEXT NOT NULL DEFAULT 'pending'
                            CHECK (state = 'pending' OR state = 'leased' OR state = 'done' OR state = 'failed'),
                        attempts INTEGER NOT NULL DEFAULT 0,
                        maxAttempts INTEGER NOT NULL DEFAULT 3,
                        notBefore REAL NOT NULL DEFAULT 0,
                        leaseToken TEXT,
                        leasedTo TEXT,
                        leasedAt REAL,
                        leaseExpires REAL,
                        recipe TEXT,
                        errorClass TEXT,
                        errorMessage TEXT,
                        updatedAt REAL NOT NULL,
                        PRIMARY KEY (photoId, kind)
                    ) WITHOUT ROWID;
                    INSERT INTO tasks_new SELECT * FROM tasks;
                    DROP TABLE tasks;
                    ALTER TABLE tasks_new RENAME TO tasks;
                    CREATE INDEX tasks_pending ON tasks(photoId) WHERE state = 'pending';
                    CREATE INDEX tasks_leased ON tasks(leaseToken) WHERE state = 'leased';
                    CREATE INDEX tasks_failed ON tasks(kind) WHERE state = 'failed';

                    CREATE TABLE attempts_new (
                        id INTEGER PRIMARY KEY,
                        photoId INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL,
                        worker TEXT,
                        leaseToken TEXT,
                        startedAt REAL NOT NULL,
                        endedAt REAL NOT NULL,
                        outcome TEXT NOT NULL CHECK (outcome = 'done' OR outcome = 'failed' OR outcome = 'retry'
                            OR outcome = 'lease-expired' OR outcome = 'worker-lost' OR outcome = 'stale'),
                        errorClass TEXT,
                        errorMessage TEXT
                    );
                    INSERT INTO attempts_new SELECT * FROM attempts;
                    DROP TABLE attempts;
                    ALTER TABLE attempts_new RENAME TO attempts;
                    CREATE INDEX attempts_photo ON attempts(photoId, kind);
                    CREATE INDEX attempts_ended ON attempts(endedAt, kind, outcome, startedAt);
                    """ + taskCountInsertDeleteTriggers
            )
        }
        migrator.registerMigration("v4-media") { db in
            // Real libraries (docs/catalog.md): what each file is (recognised by content, so
            // NULL until a scan has looked), the files that are not media (skipped, and
            // remembered so that a re-scan does not read them again), an XMP sidecar per
            // photo, Live Photo pairs (a still and a video of one name stem in one folder),
            // and the metadata of RAW, video and sidecars. Columns added, nothing rebuilt: a
            // catalog of an older schema learns its photos' formats at its next scan.
            try db.execute(
                sql: """
                    ALTER TABLE photos ADD COLUMN format TEXT;
                    ALTER TABLE photos ADD COLUMN mediaType TEXT
                        CHECK (mediaType IS NULL OR mediaType = 'photo' OR mediaType = 'raw' OR mediaType = 'video');
                    ALTER TABLE photos ADD COLUMN stem TEXT;
                    ALTER TABLE photos ADD COLUMN livePhotoId INTEGER REFERENCES photos(id) ON DELETE SET NULL;
                    ALTER TABLE photos ADD COLUMN sidecarPath TEXT;
                    ALTER TABLE photos ADD COLUMN sidecarSize INTEGER;
                    ALTER TABLE photos ADD COLUMN sidecarMtimeNs INTEGER;
                    CREATE INDEX photos_stem ON photos(stem) WHERE stem IS NOT NULL;
                    CREATE INDEX photos_mediaType ON photos(mediaType);

                    CREATE TABLE skipped_files (
                        path TEXT PRIMARY KEY,
                        size INTEGER NOT NULL,
                        mtimeNs INTEGER NOT NULL,
                        scannedAt REAL NOT NULL
                    ) WITHOUT ROWID;

                    ALTER TABLE metadata ADD COLUMN duration REAL;
                    ALTER TABLE metadata ADD COLUMN videoCodec TEXT;
                    ALTER TABLE metadata ADD COLUMN frameRate REAL;
                    ALTER TABLE metadata ADD COLUMN title TEXT;
                    ALTER TABLE metadata ADD COLUMN description TEXT;
                    ALTER TABLE metadata ADD COLUMN keywords TEXT;
                    ALTER TABLE metadata ADD COLUMN rating INTEGER;
                    ALTER TABLE metadata ADD COLUMN label TEXT;
                    ALTER TABLE metadata ADD COLUMN contentIdentifier TEXT;
                    -- search's words in titles, descriptions and keywords: only described photos.
                    CREATE INDEX metadata_described ON metadata(photoId)
                        WHERE title IS NOT NULL OR description IS NOT NULL OR keywords IS NOT NULL;
                    """
            )
        }
        migrator.registerMigration("v5-protocol") { db in
            // The error classes PROTOCOL.md names (issue 18): a lost worker's and an expired
            // lease's last attempt end `worker-lost` and `lease-expired` (they were
            // `worker-crashed`, and `timeout` like a worker's own stage limit, told apart here
            // by the coordinator's message), a changed file `file-changed` (was
            // `changed-since-scan`). Stored names are renamed, so filters and counts agree.
            for table in ["tasks", "attempts"] {
                try db.execute(
                    sql: """
                        UPDATE \(table) SET errorClass = 'worker-lost' WHERE errorClass = 'worker-crashed';
                        UPDATE \(table) SET errorClass = 'file-changed' WHERE errorClass = 'changed-since-scan';
                        UPDATE \(table) SET errorClass = 'lease-expired'
                            WHERE errorClass = 'timeout' AND errorMessage LIKE 'job ran past its deadline%';
                        """
                )
            }
        }
        migrator.registerMigration("v6-accidents") { db in
            // Real accidents (issue 14, docs/catalog.md): the catalog says it is photomill's
            // (SQLite's application_id), so no command ever writes another application's
            // database; files that leave are marked, not deleted (their history stays) and
            // found again by size and content when they were moved; folders the scan cannot
            // list are failures a person sees. photos_size serves the scan's look for a moved
            // file; no commit writes `size`, so it costs the commits nothing.
            try db.execute(
                sql: """
                    PRAGMA application_id = \(applicationId);
                    ALTER TABLE photos ADD COLUMN missingAt REAL;
                    CREATE INDEX photos_missing ON photos(missingAt) WHERE missingAt IS NOT NULL;
                    CREATE INDEX photos_size ON photos(size);
                    CREATE TABLE unreadable_folders (
                        path TEXT PRIMARY KEY,
                        message TEXT NOT NULL,
                        at REAL NOT NULL
                    ) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v7-steering") { db in
            // Steering (issue 15, docs/catalog.md): kinds an operator paused, and the order
            // pending work is paged in. `tier` is the kind's place in the default order
            // (`Kind.tier`: hash and metadata 0, thumbnail 1, OCR 2), generated so that no
            // writer can get it wrong; `rank` orders the work of one tier (lowest first: new
            // and changed files before an older backlog, a prioritized folder before all).
            // The queue index replaces tasks_pending: each tier is paged along it alone.
            // Columns added, nothing rebuilt: the old pending work keeps rank 0, behind
            // whatever a scan queues from now on.
            try db.execute(
                sql: """
                    CREATE TABLE pauses (
                        kind TEXT PRIMARY KEY,
                        reason TEXT NOT NULL,
                        pausedAt REAL NOT NULL
                    ) WITHOUT ROWID;
                    ALTER TABLE tasks ADD COLUMN rank INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE tasks ADD COLUMN tier INTEGER
                        GENERATED ALWAYS AS (CASE kind WHEN 'thumbnail' THEN 1 WHEN 'ocr' THEN 2 ELSE 0 END) VIRTUAL;
                    DROP INDEX tasks_pending;
                    CREATE INDEX tasks_queue ON tasks(tier, rank, photoId) WHERE state = 'pending';
                    """
            )
        }
        migrator.registerMigration("v8-worker-version") { db in
            // The software_version each worker's READY carries (issue 17), for `status`:
            // which build runs where. NULL in the rows of workers seen before.
            try db.execute(sql: "ALTER TABLE workers ADD COLUMN softwareVersion TEXT")
        }
        migrator.registerMigration("v9-kinds") { db in
            // A kind described once (issue 25, docs/catalog.md): `tasks.kind` loses its CHECK,
            // which made every new kind a rebuild of the table; the kinds are `Kind`'s, and
            // only photomill writes them. `tier` is generated from the kinds' descriptors
            // (`tierExpression`). SQLite cannot drop a CHECK: the table is rebuilt, once, with
            // its indexes and triggers; its columns keep their order.
            let columns = """
                photoId, kind, state, attempts, maxAttempts, notBefore, leaseToken, leasedTo, leasedAt, leaseExpires,
                recipe, errorClass, errorMessage, updatedAt, rank
                """
            try db.execute(
                sql: """
                    CREATE TABLE tasks_new (
                        photoId INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL,
                        state TEXT NOT NULL DEFAULT 'pending'
                            CHECK (state = 'pending' OR state = 'leased' OR state = 'done' OR state = 'failed'),
                        attempts INTEGER NOT NULL DEFAULT 0,
                        maxAttempts INTEGER NOT NULL DEFAULT 3,
                        notBefore REAL NOT NULL DEFAULT 0,
                        leaseToken TEXT,
                        leasedTo TEXT,
                        leasedAt REAL,
                        leaseExpires REAL,
                        recipe TEXT,
                        errorClass TEXT,
                        errorMessage TEXT,
                        updatedAt REAL NOT NULL,
                        rank INTEGER NOT NULL DEFAULT 0,
                        tier INTEGER GENERATED ALWAYS AS (\(tierExpression)) VIRTUAL,
                        PRIMARY KEY (photoId, kind)
                    ) WITHOUT ROWID;
                    INSERT INTO tasks_new (\(columns)) SELECT \(columns) FROM tasks;
                    DROP TABLE tasks;
                    ALTER TABLE tasks_new RENAME TO tasks;
                    CREATE INDEX tasks_leased ON tasks(leaseToken) WHERE state = 'leased';
                    CREATE INDEX tasks_failed ON tasks(kind) WHERE state = 'failed';
                    CREATE INDEX tasks_queue ON tasks(tier, rank, photoId) WHERE state = 'pending';
                    """ + taskCountInsertDeleteTriggers
            )
        }
        migrator.registerMigration("v10-living-library") { db in
            // A library that changes while the coordinator runs (issue 26, docs/catalog.md):
            // each photo's change time, so that a file rewritten with its mtime put back is
            // still seen (NULL until the next scan looks); when it was processed before it
            // settled (still changing after the settle bound); the rule that excludes a photo
            // (`--exclude`, `.photomillignore`; it is then missing too). Skipped files say why
            // (docs/operations.md, "What is skipped"). Rescans asked for by `photomill scan`,
            // the API and SIGHUP, and what the coordinator watches, for `status`.
            try db.execute(
                sql: """
                    ALTER TABLE photos ADD COLUMN ctimeNs INTEGER;
                    ALTER TABLE photos ADD COLUMN unsettledAt REAL;
                    ALTER TABLE photos ADD COLUMN excludedBy TEXT;
                    ALTER TABLE skipped_files ADD COLUMN reason TEXT NOT NULL DEFAULT 'not-media';
                    ALTER TABLE skipped_files ADD COLUMN detail TEXT;
                    CREATE INDEX photos_unsettled ON photos(unsettledAt) WHERE unsettledAt IS NOT NULL;
                    CREATE TABLE scan_requests (
                        id INTEGER PRIMARY KEY,
                        paths TEXT,
                        origin TEXT NOT NULL,
                        requestedAt REAL NOT NULL,
                        startedAt REAL,
                        finishedAt REAL,
                        summary TEXT
                    );
                    CREATE TABLE library_watch (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        report TEXT NOT NULL,
                        updatedAt REAL NOT NULL
                    );
                    """
            )
        }
        migrator.registerMigration("v11-wait-codes") { db in
            // Codes, not sentences (issue 25, docs/catalog.md): why a kind waits is stored as
            // a code (`WaitReason.code`) and its detail, and `status` says it in words. The
            // sentences the coordinators before wrote become codes; anything else is dropped
            // (the next coordinator writes every reason again when it starts).
            try db.execute(
                sql: """
                    ALTER TABLE waits ADD COLUMN detail TEXT;
                    UPDATE waits SET reason = 'not-asked-for', detail = substr(reason, 24, instr(reason, ')') - 24)
                        WHERE reason LIKE 'not asked for (--kinds %)%';
                    UPDATE waits SET reason = 'no-worker' WHERE reason = 'no worker connected';
                    UPDATE waits SET reason = 'language-not-offered',
                        detail = substr(reason, 35, instr(reason, ' (they offer ') - 35) || ';'
                            || replace(substr(reason, instr(reason, ' (they offer ') + 13,
                                              length(reason) - instr(reason, ' (they offer ') - 13), ', ', ',')
                        WHERE reason LIKE 'no connected worker offers OCR in % (they offer %)';
                    UPDATE waits SET reason = 'kind-not-offered' WHERE reason LIKE 'no connected worker offers %';
                    DELETE FROM waits
                        WHERE reason NOT IN ('not-asked-for', 'no-worker', 'language-not-offered', 'kind-not-offered');
                    """
            )
        }
        migrator.registerMigration("v12-similarity") { db in
            // Similar photos (issue 28, docs/catalog.md): each photo's perceptual hash, the
            // 64 bits as a signed INTEGER, and its four 16-bit chunks (highest first),
            // generated so that no writer can get them wrong, each indexed: two hashes within
            // distance d agree within floor(d / 4) bits on at least one chunk (pigeonhole),
            // so `search --like` looks up the chunks near the query's instead of reading
            // every hash. The kind is in the thumbnail's tier. A catalog's photos gain their
            // similarity tasks at its next scan, like any kind they never had.
            try db.execute(
                sql: """
                    CREATE TABLE similarity (
                        photoId INTEGER PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
                        hash INTEGER NOT NULL,
                        recipe TEXT NOT NULL,
                        c0 INTEGER GENERATED ALWAYS AS ((hash >> 48) & 65535) VIRTUAL,
                        c1 INTEGER GENERATED ALWAYS AS ((hash >> 32) & 65535) VIRTUAL,
                        c2 INTEGER GENERATED ALWAYS AS ((hash >> 16) & 65535) VIRTUAL,
                        c3 INTEGER GENERATED ALWAYS AS (hash & 65535) VIRTUAL
                    );
                    CREATE INDEX similarity_c0 ON similarity(c0);
                    CREATE INDEX similarity_c1 ON similarity(c1);
                    CREATE INDEX similarity_c2 ON similarity(c2);
                    CREATE INDEX similarity_c3 ON similarity(c3);
                    """
            )
            try regenerateTier(db)
        }
        migrator.registerMigration("v13-similarity-detail") { db in
            // The detail hash (docs/catalog.md, "similarity"): 32 bytes, NULL for a hash of
            // before it (compared by the 64-bit hash alone until `reprocess --outdated`).
            try db.execute(sql: "ALTER TABLE similarity ADD COLUMN detail BLOB")
        }
        migrator.registerMigration("v14-similarity-covering") { db in
            // Each chunk's index holds the hash too (docs/catalog.md, "similarity"): `search
            // --like` reads its candidates — some 6,000 rows at distance 10 over 10^6 hashes —
            // from the four indexes alone, where it read a table page for each. About 8 bytes
            // more an entry; rebuilt once, some seconds for 10^6 photos.
            try db.execute(
                sql: (0..<4).map { chunk in
                    """
                    DROP INDEX similarity_c\(chunk);
                    CREATE INDEX similarity_c\(chunk) ON similarity(c\(chunk), hash);
                    """
                }.joined(separator: "\n")
            )
        }
        return migrator
    }

    /// `tasks.tier` as SQL, from each kind's `KindDescriptor.tier`: `CASE kind WHEN
    /// 'thumbnail' THEN 1 WHEN 'ocr' THEN 2 ELSE 0 END` for the kinds of today.
    static var tierExpression: String {
        let cases = Kind.allCases.filter { $0.tier != 0 }.map { "WHEN '\($0.rawValue)' THEN \($0.tier)" }
        return (["CASE kind"] + cases + ["ELSE 0 END"]).joined(separator: " ")
    }

    /// Makes `tasks.tier` follow the descriptors again, for a migration that adds a kind
    /// outside tier 0 or moves one (a virtual column: no row is rewritten, only the pending
    /// tasks' queue index is built again).
    static func regenerateTier(_ db: Database) throws {
        try db.execute(
            sql: """
                DROP INDEX tasks_queue;
                ALTER TABLE tasks DROP COLUMN tier;
                ALTER TABLE tasks ADD COLUMN tier INTEGER GENERATED ALWAYS AS (\(tierExpression)) VIRTUAL;
                CREATE INDEX tasks_queue ON tasks(tier, rank, photoId) WHERE state = 'pending';
                """
        )
    }

    /// SQLite's `application_id` of a photomill catalog: "PMIL" (set by v6-accidents).
    static let applicationId: Int32 = 0x504D_494C

    /// The migrations of the catalogs made before `application_id` was set: such a file is
    /// photomill's when it recorded `v1` and nothing else than these.
    static let migrationsBeforeApplicationId: Set<String> = [
        "v1", "v2-routing", "v2-violations", "v2-ops", "v3-lean-task-writes", "v4-media", "v5-protocol",
    ]

    /// Count inserted and deleted tasks in `task_counts` (migration v2-ops).
    private static let taskCountInsertDeleteTriggers = """
        CREATE TRIGGER tasks_counted_insert AFTER INSERT ON tasks BEGIN
            INSERT INTO task_counts (kind, state, n) VALUES (new.kind, new.state, 1)
                ON CONFLICT (kind, state) DO UPDATE SET n = n + 1;
        END;
        CREATE TRIGGER tasks_counted_delete AFTER DELETE ON tasks BEGIN
            UPDATE task_counts SET n = n - 1 WHERE kind = old.kind AND state = old.state;
        END;
        """
}
