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

/// How fast one kind of task is finishing, measured from the attempts of the last minute.
public struct KindRate: Sendable, Hashable {
    /// Tasks that ended `done` or `failed` in the last minute; when the minute holds more
    /// attempts than `Catalog.rateSample`, `perSecond` × 60 (an estimate).
    public var finished: Int
    /// Tasks finished per second over the part of the window the work covered: from the
    /// earliest start of those attempts (or the window's start, if later) to now, at least 1 s.
    public var perSecond: Double
}

extension Catalog {
    /// The window `status` measures throughput over.
    public static let rateWindow: Double = 60
    /// At most this many of the most recent attempts are counted: at thousands of tasks a
    /// second a minute holds hundreds of thousands, and the last 20,000 give the rate as well.
    public static let rateSample = 20_000

    /// Per-kind rates over the last `rateWindow` seconds. Reads only that window's
    /// attempts (at most `sample` of them), through the (endedAt, kind, outcome, startedAt) index.
    static func rates(_ db: Database, now: Double, sample: Int = rateSample) throws -> [Kind: KindRate] {
        var rates: [Kind: KindRate] = [:]
        let minuteAgo = now - rateWindow
        let cutoff = try Double.fetchOne(
            db,
            sql: """
                SELECT endedAt FROM attempts INDEXED BY attempts_ended WHERE endedAt > ? ORDER BY endedAt DESC LIMIT 1 OFFSET ?
                """,
            arguments: [minuteAgo, sample]
        )
        let since = cutoff ?? minuteAgo
        struct Finished: FetchableRecord, Decodable {
            var kind: String
            var n: Int
            var firstStart: Double?
        }
        for row in try Finished.fetchAll(
            db,
            sql: """
                SELECT kind, COUNT(*) AS n, MIN(startedAt) AS firstStart FROM attempts INDEXED BY attempts_ended
                WHERE endedAt > ? AND outcome IN ('done', 'failed') GROUP BY kind
                """,
            arguments: [since]
        ) {
            guard let kind = Kind(rawValue: row.kind) else { continue }
            let counted = row.n
            let firstStart = row.firstStart ?? since
            let perSecond = Double(counted) / Swift.max(1, now - Swift.max(since, firstStart))
            rates[kind] = KindRate(
                finished: cutoff == nil ? counted : Int((perSecond * rateWindow).rounded()),
                perSecond: perSecond
            )
        }
        return rates
    }
}

extension CatalogStatus {
    /// Tasks of `kind` not finished yet: pending (due or backing off) and leased.
    public func remaining(_ kind: Kind) -> Int { count(kind, .pending) + count(kind, .leased) }

    /// Seconds until `kind` is finished at its measured rate: 0 when nothing remains,
    /// nil when something remains but nothing of that kind finished in the last minute.
    public func etaSeconds(_ kind: Kind) -> Double? {
        let remaining = remaining(kind)
        guard remaining > 0 else { return 0 }
        guard let rate = rates[kind], rate.perSecond > 0 else { return nil }
        return Double(remaining) / rate.perSecond
    }

    /// Seconds until every kind is finished: the slowest kind's ETA (kinds run side by
    /// side, so this is the time the last one needs at today's rates; when a fast kind
    /// finishes, its workers' time goes to the others and the real end comes earlier).
    public var etaSeconds: Double? {
        var longest = 0.0
        for kind in counts.keys {
            guard let eta = etaSeconds(kind) else { return nil }
            longest = Swift.max(longest, eta)
        }
        return longest
    }
}
