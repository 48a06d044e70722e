import Foundation
internal import GRDB
import PhotomillCore

extension Catalog {
    /// Pending work whose backoff has passed, for photos after `photoId`, in photo order:
    /// hash, metadata and thumbnail travel together (one read of the file serves all);
    /// OCR, a hundred times slower, travels as a job of its own.
    /// Only tasks of `kinds` (those some connected worker offers; the others wait), and
    /// none of a missing photo.
    public func pendingJobs(afterPhoto photoId: Int64, now: Double, limit: Int,
                            kinds: Set<Kind> = Set(Kind.allCases)) throws(CatalogError) -> [PendingJob] {
        try read { db in
            // INDEXED BY: with the kind filter SQLite would otherwise pick tasks_kind_state and
            // sort every pending task after the cursor for each page (184 ms instead of 12 ms
            // a page on a catalog with 50,000 pending tasks).
            let names = kinds.map { "'\($0.rawValue)'" }.sorted().joined(separator: ",")
            let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT t.photoId, t.kind, p.path, p.size, p.mtimeNs, t.updatedAt, p.sidecarPath, p.sidecarSize, p.sidecarMtimeNs
                FROM tasks t INDEXED BY tasks_pending JOIN photos p ON p.id = t.photoId
                WHERE t.state = 'pending' AND t.photoId > ? AND t.notBefore <= ? AND t.kind IN (\(names)) AND p.missingAt IS NULL
                ORDER BY t.photoId
                LIMIT ?
                """), arguments: [photoId, now, limit * 4])
            var jobs: [PendingJob] = []
            var current: (main: PendingJob, ocr: PendingJob)?
            func flush() {
                guard let (main, ocr) = current else { return }
                if !main.kinds.isEmpty { jobs.append(main) }
                if !ocr.kinds.isEmpty { jobs.append(ocr) }
            }
            // Columns by position (as selected above): a lookup by name per value cost more
            // than the rest of the row.
            while let row = try rows.next() {
                let id: Int64 = row[0]
                if current?.main.photoId != id {
                    flush()
                    if jobs.count >= limit { return jobs }
                    let sidecar = (row[6] as String?).map { Sidecar(path: $0, size: row[7], mtimeNs: row[8]) }
                    let job = PendingJob(photoId: id, path: row[2], size: row[3], mtimeNs: row[4], kinds: [], sidecar: sidecar)
                    current = (job, job)
                }
                guard let kind = Kind(rawValue: row[1]) else { continue }
                if kind == .ocr { current!.ocr.add(kind, updatedAt: row[5]) } else { current!.main.add(kind, updatedAt: row[5]) }
            }
            flush()
            return jobs
        }
    }

    /// Every task currently leased: what a restarted coordinator must wait for or expire.
    public func outstandingLeases() throws(CatalogError) -> [Lease] {
        try read { db in
            var leases: [String: Lease] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT photoId, kind, leaseToken, leasedTo, leasedAt, leaseExpires FROM tasks WHERE state = 'leased'
                """) {
                let token: String = row["leaseToken"] ?? ""
                guard let kind = Kind(rawValue: row["kind"]) else { continue }
                leases[token, default: Lease(photoId: row["photoId"], kinds: [], token: token,
                                             worker: row["leasedTo"] ?? "", leasedAt: row["leasedAt"] ?? 0,
                                             expiresAt: row["leaseExpires"] ?? 0)].kinds.append(kind)
            }
            return Array(leases.values)
        }
    }
}
