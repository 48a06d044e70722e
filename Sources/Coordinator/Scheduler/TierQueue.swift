import Catalog
import PhotomillCore

/// One tier's work in the scheduler (`Kind.tier`): the jobs paged in, and where the next
/// page starts. Each tier is paged on its own, so a worker that offers only OCR finds OCR
/// jobs however long the cheap tiers' backlog is, and a paused tier costs no read.
struct TierQueue {
    var jobs = ReadyQueue()
    var position = QueuePosition.start
    /// The last page came back short: nothing more is due now after `position`.
    var reachedEnd = false
    var nextRefill = MonotonicInstant.distantPast

    /// Forgets what was paged (it is still pending in the catalog, so nothing is lost) and
    /// pages again from the front.
    mutating func restart() {
        jobs.removeAll()
        position = .start
        reachedEnd = false
        nextRefill = .distantPast
    }
}

extension [TierQueue] {
    /// A queue per tier, indexed by tier.
    static var perTier: [TierQueue] { Kind.tiers.map { _ in TierQueue() } }

    var jobCount: Int { reduce(0) { $0 + $1.jobs.count } }
}
