import Catalog
import Foundation
import PhotomillCore

/// Writes the coordinator's batches to the catalog on a thread of its own, so that the
/// socket loop goes on receiving and dispatching while SQLite commits the previous batch.
///
/// One batch is in the committer at a time. The loop submits a batch with the ACKs that
/// must wait for it, and learns that it is done through a pipe it polls (`wakeDescriptor`);
/// it then collects the report and sends the ACKs. While a batch is being written the
/// loop's next batch grows, so batches get larger exactly when SQLite is the bottleneck.
final class Committer: @unchecked Sendable {
    // @unchecked: `work`, `done` and `stopping` are guarded by `condition`; the pipe's
    // write end is used by the committer's thread only, its read end and `isBusy` by the
    // loop only; `thread` is set once, in `init`.
    struct Work {
        var batch: CommitBatch
        var acks: [PendingAck]
        var now: Double
    }

    struct Done {
        var report: Result<CommitReport, CatalogError>
        var acks: [PendingAck]
    }

    /// The file descriptor the coordinator polls: readable when a batch is done.
    let wakeDescriptor: Int32
    private let signalDescriptor: Int32
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
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw CatalogError(.unusable, path: catalog.path, "cannot create the committer's pipe: \(String(cString: strerror(errno)))")
        }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
        }
        wakeDescriptor = descriptors[0]
        signalDescriptor = descriptors[1]
        self.catalog = catalog
        self.retry = retry
        self.metrics = metrics
        thread = OwnedThread(name: "pm-committer") { [self] in serve() }
    }

    deinit {
        close(wakeDescriptor)
        close(signalDescriptor)
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
        var bytes = [UInt8](repeating: 0, count: 16)
        while read(wakeDescriptor, &bytes, bytes.count) > 0 {}
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
            var byte: UInt8 = 1
            _ = write(signalDescriptor, &byte, 1)
        }
    }
}

