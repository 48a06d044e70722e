import Foundation

/// A thread photomill owns, for work that blocks in C (zmq_poll, SQLite, libvips,
/// tesseract) and so must never run on Swift's cooperative pool. It starts at once, is
/// named for `top -H` and the benchmark's CPU per thread, and its end (the body's value)
/// is waited for without polling: `join()` from a thread, `value` from a task.
public final class OwnedThread<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `result` and `waiters` are guarded by `condition`; the thread writes
    // `result` once, then only reads happen.
    private let condition = NSCondition()
    private var result: Value?
    private var waiters: [CheckedContinuation<Value, Never>] = []

    /// `name`: at most 15 bytes are kept (Linux's limit), so names are short: `pm-committer`.
    public init(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            Self.nameCurrentThread(name)
            finish(body())
        }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }

    /// Blocks the calling thread until the body has returned.
    public func join() -> Value {
        condition.withLock {
            while result == nil { condition.wait() }
            return result!
        }
    }

    /// Suspends the calling task until the body has returned.
    public var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready: Value? = condition.withLock {
                    if result == nil { waiters.append(continuation) }
                    return result
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    public var isFinished: Bool { condition.withLock { result != nil } }

    private func finish(_ value: Value) {
        let waiting = condition.withLock {
            result = value
            condition.broadcast()
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in waiting { waiter.resume(returning: value) }
    }

    /// Names the calling thread. Not `Thread.name`, which Foundation applies only once the
    /// thread's creator has recorded its handle, a race with the thread's first steps.
    public static func nameCurrentThread(_ name: String) {
        let short = String(decoding: name.utf8.prefix(15), as: UTF8.self)
        try? short.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
    }
}
