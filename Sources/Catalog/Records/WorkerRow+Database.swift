internal import GRDB
import PhotomillCore

/// A `workers` row read and written.
extension WorkerRow {
    init?(row: Row) {
        guard let state = State(rawValue: row["state"]) else { return nil }
        self.init(id: row["id"], host: row["host"], softwareVersion: row["softwareVersion"], slots: row["slots"],
                  kinds: row["kinds"], ocrLanguages: row["ocrLanguages"], state: state, connectedAt: row["connectedAt"],
                  lastSeen: row["lastSeen"], inFlight: row["inFlight"], done: row["done"], failed: row["failed"])
    }

    func upsert(_ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO workers (id, host, softwareVersion, slots, kinds, ocrLanguages, state, connectedAt, lastSeen, inFlight, done, failed)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET host = excluded.host, softwareVersion = excluded.softwareVersion,
                slots = excluded.slots, kinds = excluded.kinds, ocrLanguages = excluded.ocrLanguages, state = excluded.state,
                lastSeen = excluded.lastSeen, inFlight = excluded.inFlight, done = excluded.done, failed = excluded.failed
            """).execute(arguments: [id, host, softwareVersion, slots, kinds, ocrLanguages, state.rawValue, connectedAt, lastSeen,
                                     inFlight, done, failed])
    }
}
