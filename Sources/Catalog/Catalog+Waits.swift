internal import GRDB
import PhotomillCore

extension Catalog {
    /// Replaces the reasons why tasks wait (kind → reason; empty: nothing waits for a worker).
    public func recordWaiting(_ reasons: [Kind: String]) throws(CatalogError) {
        try write { db in
            try db.execute(sql: "DELETE FROM waits")
            for (kind, reason) in reasons {
                try db.execute(sql: "INSERT INTO waits (kind, reason) VALUES (?, ?)", arguments: [kind.rawValue, reason])
            }
        }
    }

    func waits(_ db: Database) throws -> [Kind: String] {
        var reasons: [Kind: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT kind, reason FROM waits") {
            if let kind = Kind(rawValue: row["kind"]) { reasons[kind] = row["reason"] }
        }
        return reasons
    }
}
