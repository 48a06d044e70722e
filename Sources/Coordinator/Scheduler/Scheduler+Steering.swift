import Catalog
import Logging
import PhotomillCore

// What operators change while the coordinator runs (`photomill pause`, `resume`, `retry`,
// `reprocess`, `prioritize`, the dashboard): the service reads it from the catalog twice
// a second (`.readSteering`), so a change takes effect within a second.
extension Scheduler {
    /// What `.readSteering` read. A new requeue mark (work put back behind the queues'
    /// positions, or a folder moved to the front) empties the queues, whose jobs are still
    /// pending in the catalog, and pages again from the front. A kind paused leaves the
    /// queues at once and is no longer paged; jobs already out finish. Then the pages due.
    mutating func steeringRead(_ steering: Steering, at now: ClockReading) -> [SchedulerAction] {
        var actions: [SchedulerAction] = []
        if steering.requeueMark != requeueMark {
            requeueMark = steering.requeueMark
            for tier in Kind.tiers { queues[tier].restart() }
        }
        if steering.paused != paused {
            let changed = Set(steering.paused.keys).symmetricDifference(paused.keys)
            paused = steering.paused
            if !changed.isEmpty {
                logger.notice("paused kinds changed", metadata: [
                    "kinds.paused": "\(Kind.list(paused.keys))", "kinds.changed": "\(Kind.list(changed))",
                ])
            }
            actions += capabilitiesChanged()
        }
        return actions + pageRequests(at: now)
    }
}
