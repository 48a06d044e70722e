import Catalog
import Foundation
import PhotomillCore

/// Writes the coordinator's batches to the catalog on a thread of its own, so that the
/// socket loop goes on receiving and dispatching while SQLite commits the previous batch.
///
/// One batch is in the committer at a time. The loop submits a batch with the ACKs that
/// must wait for it, and learns that it is done through a pipe it polls (`wake`);
/// it then collects the report and sends the ACKs. While a batch is being written the
/// loop's next batch grows, so batches get larger exactly when SQLite is the bottleneck.
final class Committer: @unchecked Sendable {
    // @unchecked: `work`, `done` and `stopping` are guarded by `condition`; `isBusy` is
    // the loop's only; `wake` is thread-safe; `thread` is set once, in `init`.
    struct Work {
        var batch: CommitBatch
        var acks: [PendingAck]
        var now: Double
    }

    struct Done {
        var report: Result<CommitReport, CatalogError>
        var acks: [PendingAck]
    }

    /// The coordinator polls its descriptor: readable when a batch is done.
    let wake: WakePipe
    private let catalog: Catalog
    private let retry: RetryPolicy
    private let metrics: CoordinatorMetrics?
    private let condition = NSCondition()
    private var work: Work?
    private var done: Done?
    private var stopping = false
    /// Loop side: a batch was submitted and its report not yet collected.
    private var isBusy = false
    private var thread: OwnedThread<Void>?

    init(catalog: Catalog, retry: RetryPolicy, metrics: CoordinatorMetrics? = nil) throws {
        do {
            wake = try WakePipe()
        } catch {
            throw CatalogError(.unusable, path: catalog.path, "the committer \(error)")
        }
        self.catalog = catalog
        self.retry = retry
        self.metrics = metrics
        thread = OwnedThread(name: "pm-committer") { [self] in serve() }
    }

    /// Hands a batch over; only when not busy.
    func submit(_ batch: CommitBatch, acks: [PendingAck], now: Double) {
        precondition(!isBusy, "one batch at a time")
        isBusy = true
        condition.withLock {
            work = Work(batch: batch, acks: acks, now: now)
            condition.broadcast()
        }
    }

    /// The finished batch, if there is one; `wait` blocks until the batch in flight is
    /// done. Empties the pipe, whose bytes only say "look".
    func collect(wait: Bool = false) -> Done? {
        wake.drain()
        guard isBusy else { return nil }
        let finished: Done? = condition.withLock {
            while wait && done == nil { condition.wait() }
            defer { done = nil }
            return done
        }
        if finished != nil { isBusy = false }
        return finished
    }

    /// Stops the thread once the batch it is writing, if any, is written.
    func stop() {
        condition.withLock {
            stopping = true
            condition.broadcast()
        }
        thread?.join()
    }

    private func serve() {
        while true {
            let next: Work? = condition.withLock {
                while work == nil && !stopping { condition.wait() }
                defer { work = nil }
                return work
            }
            guard let next else { return }
            let report: Result<CommitReport, CatalogError>
            do {
                let started = MonotonicInstant.now()
                report = .success(try catalog.commit(next.batch, now: next.now, retry: retry))
                if let metrics, case .success(let written) = report {
                    metrics.committed(next.batch, written, seconds: MonotonicInstant.now() - started)
                }
            } catch {
                report = .failure(error)
            }
            condition.withLock {
                done = Done(report: report, acks: next.acks)
                condition.broadcast()
            }
            wake.signal()
        }
    }
}

