import Foundation

/// Jobs waiting for a slot thread, and results waiting for the socket thread.
/// The socket thread is woken through an inproc socket (see `WorkerService`), so this
/// only guards the data.
final class JobQueue<Job, Outcome>: @unchecked Sendable {
    // @unchecked: every stored property is read and written under `condition`.
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var outcomes: [Outcome] = []
    private var closed = false

    func push(_ job: Job) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Blocks until a job is available; nil once closed and drained.
    func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !closed { condition.wait() }
        return jobs.isEmpty ? nil : jobs.removeFirst()
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    func deliver(_ outcome: Outcome) {
        condition.lock()
        outcomes.append(outcome)
        condition.unlock()
    }

    func takeOutcomes() -> [Outcome] {
        condition.lock()
        defer { condition.unlock() }
        let taken = outcomes
        outcomes.removeAll()
        return taken
    }
}
