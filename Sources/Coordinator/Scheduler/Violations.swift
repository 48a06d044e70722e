import Foundation
import Logging
import PhotomillCore

/// Malformed or unexpected messages: dropped, counted by reason, and logged at most once
/// per peer per minute so a hostile peer cannot flood the log. The counts since the last
/// commit go to the catalog with it (`photomill status` shows them).
struct Violations {
    private(set) var counts: [String: Int] = [:]
    /// Counted since `takeUncommitted()` last ran.
    private var uncommitted: [String: Int] = [:]
    private var lastLogged: [Data: MonotonicInstant] = [:]

    mutating func record(_ reason: String, from peer: Data, detail: String, logger: Logger, at now: MonotonicInstant) {
        counts[reason, default: 0] += 1
        uncommitted[reason, default: 0] += 1
        if now - (lastLogged[peer] ?? .distantPast) >= 60 {
            lastLogged[peer] = now
            logger.warning("dropped a message", metadata: ["peer": "\(peer.printable)", "reason": "\(reason)", "detail": "\(detail)"])
        }
        if lastLogged.count > 10_000 { lastLogged = lastLogged.filter { now - $0.value < 60 } }
    }

    /// The counts not yet handed to a commit; they are forgotten here.
    mutating func takeUncommitted() -> [String: Int] {
        defer { uncommitted.removeAll() }
        return uncommitted
    }
}

extension Data {
    /// A routing id for logs: printable ASCII as is, anything else in hex.
    var printable: String {
        if allSatisfy({ (0x21...0x7e).contains($0) }) { return String(decoding: self, as: UTF8.self) }
        return "0x" + map { String(format: "%02x", $0) }.joined()
    }
}
