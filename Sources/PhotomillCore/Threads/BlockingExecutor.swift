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

import Foundation

/// Threads photomill owns (`OwnedThread`s) that run blocking jobs — SQLite, file reads,
/// libvips, tesseract — in the order they were submitted, so none of it runs on Swift's
/// cooperative pool or on a socket loop. The one way photomill runs a stream of blocking
/// work: the committer, the file readers, the exports, the dashboard's catalog reads,
/// the worker's slots and `inspect`'s processing each own one.
///
/// Each thread may keep a `Context` of its own, made on that thread and never shared (a
/// `PhotoProcessor` with its tesseract engine, a socket): jobs get their thread's.
///
/// `close()` refuses new jobs and returns at once, whatever a job is doing; the queued
/// jobs still run (or are dropped, if asked), then the threads end. `join()` waits for
/// that. A value that goes away closes itself, so its threads end once the queue is empty.
public final class BlockingExecutor<Context>: Sendable {
    public typealias Job = @Sendable (inout Context) -> Void

    private let queue = Queue()
    private let threads: [OwnedThread<Void>]

    /// `threads` threads named `name` (numbered when there are several), each with the
    /// context `context(index)` makes on it.
    public init(
        name: String,
        threads count: Int = 1,
        stackSize: Int? = nil,
        context: @escaping @Sendable (Int) -> Context
    ) {
        let queue = queue
        threads = (0..<max(1, count)).map { index in
            OwnedThread(name: count > 1 ? "\(name)-\(index)" : name, stackSize: stackSize) {
                var local = context(index)
                while let job = queue.next() { job(&local) }
            }
        }
    }

    deinit { queue.close(droppingQueued: false) }

    /// Queues `job`; false (and it never runs) once the executor is closed.
    @discardableResult
    public func submit(_ job: @escaping Job) -> Bool { queue.push(job) }

    /// Refuses new jobs from now on; the queued ones still run, unless `droppingQueued`
    /// (then the jobs not started are dropped: how many is returned). Never waits.
    @discardableResult
    public func close(droppingQueued: Bool = false) -> Int { queue.close(droppingQueued: droppingQueued) }

    /// Waits until every thread has ended: only after `close()` (or it waits for ever).
    public func join() {
        for thread in threads { thread.join() }
    }

    /// `close`, then `join`.
    public func shutdown(droppingQueued: Bool = false) {
        close(droppingQueued: droppingQueued)
        join()
    }

    /// Jobs queued and not yet started.
    public var queued: Int { queue.counts.queued }

    /// Threads waiting for a job: all of them once the queue is empty and no job runs.
    public var idleThreads: Int { queue.counts.idle }

    /// The jobs and the threads' meeting point: the one hand-written condition queue.
    private final class Queue: @unchecked Sendable {
        // @unchecked: every stored property is read and written under `condition`.
        private let condition = NSCondition()
        /// FIFO from `head`; the consumed prefix is dropped once it is half the array.
        private var jobs: [Job?] = []
        private var head = 0
        private var closed = false
        private var idle = 0

        func push(_ job: @escaping Job) -> Bool {
            condition.withLock {
                guard !closed else { return false }
                jobs.append(job)
                condition.signal()
                return true
            }
        }

        /// The next job; nil once closed and empty (the thread then ends).
        func next() -> Job? {
            condition.withLock {
                while head == jobs.count && !closed {
                    idle += 1
                    condition.wait()
                    idle -= 1
                }
                guard head < jobs.count else { return nil }
                let job = jobs[head]
                jobs[head] = nil
                head += 1
                if head == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    head = 0
                } else if head > 64 && head * 2 > jobs.count {
                    jobs.removeFirst(head)
                    head = 0
                }
                return job
            }
        }

        func close(droppingQueued: Bool) -> Int {
            condition.withLock {
                closed = true
                var dropped = 0
                if droppingQueued {
                    dropped = jobs.count - head
                    jobs.removeAll()
                    head = 0
                }
                condition.broadcast()
                return dropped
            }
        }

        var counts: (queued: Int, idle: Int) { condition.withLock { (jobs.count - head, idle) } }
    }
}

extension BlockingExecutor where Context == Void {
    /// `threads` threads named `name`, with no context of their own.
    public convenience init(name: String, threads count: Int = 1, stackSize: Int? = nil) {
        self.init(name: name, threads: count, stackSize: stackSize) { _ in () }
    }

    /// Queues `job`; false (and it never runs) once the executor is closed.
    @discardableResult
    public func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        submit { (_: inout Void) in job() }
    }
}

extension BlockingExecutor {
    /// Runs `body` on one of the threads; its value arrives in the completion. Nil, and
    /// `body` never runs, once the executor is closed.
    public func completion<T: Sendable>(_ body: @escaping @Sendable (inout Context) -> T) -> Completion<T>? {
        let completion = Completion<T>()
        return submit { context in completion.fulfil(body(&context)) } ? completion : nil
    }

    /// Runs `body` on one of the threads; the calling task waits without blocking a thread.
    /// Throws `CancellationError` once the executor is closed.
    public func perform<T: Sendable>(_ body: @escaping @Sendable (inout Context) throws -> T) async throws -> T {
        let done = completion { context in Result { try body(&context) } }
        guard let done else { throw CancellationError() }
        return try await done.value.get()
    }
}
