import Foundation
import PhotomillCore

/// The dashboard's catalog work, on a thread of its own: SQLite blocks, so it never runs
/// on Swift's cooperative pool nor on the server's event loops. One request at a time:
/// however many browsers and scrapers ask, the dashboard holds at most one reader of the
/// catalog (and queues behind the coordinator's writer for an action), so it can never
/// starve the coordinator of either.
final class CatalogWorker: @unchecked Sendable {
    // @unchecked: `queue` and `stopping` are guarded by `condition`; `thread` is set once,
    // in `init`.
    private let condition = NSCondition()
    private var queue: [@Sendable () -> Void] = []
    private var stopping = false
    private var thread: OwnedThread<Void>?

    init() {
        thread = OwnedThread(name: "pm-http-catalog") { [self] in serve() }
    }

    /// Runs `body` on the worker's thread; the calling task waits without blocking a thread.
    func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let accepted = condition.withLock {
                guard !stopping else { return false }
                queue.append { continuation.resume(with: Result { try body() }) }
                condition.signal()
                return true
            }
            if !accepted { continuation.resume(throwing: CancellationError()) }
        }
    }

    /// Runs what is queued, then ends the thread.
    func stop() {
        condition.withLock {
            stopping = true
            condition.signal()
        }
        thread?.join()
    }

    private func serve() {
        while true {
            let next: (@Sendable () -> Void)? = condition.withLock {
                while queue.isEmpty && !stopping { condition.wait() }
                return queue.isEmpty ? nil : queue.removeFirst()
            }
            guard let next else { return }
            next()
        }
    }
}
