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
import PhotomillCore
import PhotomillTestSupport
import Testing

/// The executor every stream of blocking work runs on (committer, readers, exports, the
/// dashboard's reads, the worker's slots, `inspect`), on real threads.
@Suite("Blocking executor")
struct BlockingExecutorTests {
    /// A gate a job waits at until the test opens it.
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func open(_ count: Int = 1) { for _ in 0..<count { semaphore.signal() } }
        func pass() { semaphore.wait() }
        /// Waits up to `seconds` for a pass; false if none came (the bound of a failing test).
        func pass(within seconds: Double) -> Bool { semaphore.wait(timeout: .now() + seconds) == .success }
    }

    @Test("one thread runs the jobs in the order they were submitted")
    func order() {
        let executor = BlockingExecutor(name: "pm-test")
        let ran = Mailbox<Int>()
        for index in 0..<1000 { #expect(executor.submit { ran.post(index) }) }
        executor.shutdown()
        #expect(ran.takeAll() == Array(0..<1000))
    }

    /// Job 0, which blocks until `release` opens, and jobs 1…5 queued behind it; returns
    /// once job 0 runs. Each job posts its number to `ran`.
    static func blockedBehindOne(_ executor: BlockingExecutor<Void>, release: Gate, ran: Mailbox<Int>) -> Bool {
        let started = Gate()
        executor.submit {
            started.open()
            release.pass()
            ran.post(0)
        }
        for index in 1...5 { executor.submit { ran.post(index) } }
        return started.pass(within: 30)
    }

    @Test("close refuses new jobs at once, while a job blocks; the queued ones still run")
    func closeDrains() {
        let executor = BlockingExecutor(name: "pm-test")
        let release = Gate()
        let ran = Mailbox<Int>()
        #expect(Self.blockedBehindOne(executor, release: release, ran: ran))
        // The job blocks: close returns regardless, and the executor refuses from then on.
        #expect(executor.close() == 0)
        #expect(!executor.submit { ran.post(99) })
        #expect(executor.queued == 5)
        release.open()
        executor.join()
        #expect(ran.takeAll() == [0, 1, 2, 3, 4, 5])
    }

    @Test("close dropping the queue: what had not started never runs, and is counted")
    func closeDrops() {
        let executor = BlockingExecutor(name: "pm-test")
        let release = Gate()
        let ran = Mailbox<Int>()
        #expect(Self.blockedBehindOne(executor, release: release, ran: ran))
        #expect(executor.close(droppingQueued: true) == 5)
        #expect(executor.queued == 0)
        release.open()
        executor.join()
        #expect(ran.takeAll() == [0])
    }

    @Test("several threads run jobs at the same time, each with the context made on it")
    func threadsAndContexts() {
        final class Context {
            let thread = pthread_self()
            var jobs = 0
        }
        let executor = BlockingExecutor(name: "pm-test", threads: 3) { _ in Context() }
        let started = Gate()
        let release = Gate()
        let seen = Mailbox<(made: pthread_t, ranOn: pthread_t, jobs: Int)>()
        // Three jobs that each wait for the test: only three threads at once can hold them.
        for _ in 0..<3 {
            executor.submit { context in
                started.open()
                release.pass()
                context.jobs += 1
                seen.post((context.thread, pthread_self(), context.jobs))
            }
        }
        for _ in 0..<3 { #expect(started.pass(within: 30), "three jobs run at once on three threads") }
        release.open(3)
        for _ in 0..<30 {
            executor.submit { context in
                context.jobs += 1
                seen.post((context.thread, pthread_self(), context.jobs))
            }
        }
        executor.shutdown()
        let records = seen.takeAll()
        #expect(records.count == 33)
        #expect(
            records.allSatisfy { pthread_equal($0.made, $0.ranOn) != 0 },
            "each context stays on the thread that made it"
        )
        // Each thread counts its own jobs: the largest counts add up to all of them.
        var last: [UInt: Int] = [:]
        for record in records {
            last[UInt(record.ranOn), default: 0] = max(last[UInt(record.ranOn), default: 0], record.jobs)
        }
        #expect(last.count == 3 && last.values.reduce(0, +) == 33)
    }

    @Test("the threads wait idle once the queue is empty, and end when closed")
    func idleAndEnd() {
        let executor = BlockingExecutor(name: "pm-test", threads: 2)
        let ran = Mailbox<Int>()
        for index in 0..<10 { executor.submit { ran.post(index) } }
        #expect(eventually(seconds: 30) { executor.idleThreads == 2 })
        #expect(executor.queued == 0)
        #expect(ran.takeAll().sorted() == Array(0..<10))
        executor.shutdown()
        #expect(executor.idleThreads == 0)
    }

    @Test("perform gives the job's value or error to the waiting task, and refuses once closed")
    func perform() async throws {
        struct Refused: Error {}
        let executor = BlockingExecutor(name: "pm-test")
        #expect(try await executor.perform { _ in 6 * 7 } == 42)
        await #expect(throws: Refused.self) { try await executor.perform { _ -> Int in throw Refused() } }
        let later = executor.completion { _ in "done" }
        #expect(later?.join() == "done")
        executor.close()
        await #expect(throws: CancellationError.self) { try await executor.perform { _ in 1 } }
        #expect(executor.completion { _ in 1 } == nil)
        executor.join()
    }

    @Test("an executor let go runs what it was given, then its threads end")
    func released() {
        let ran = Mailbox<Int>()
        let gate = Gate()
        do {
            let executor = BlockingExecutor(name: "pm-let-go", threads: 2)
            for index in 0..<3 { executor.submit { ran.post(index) } }
            executor.submit { gate.open() }
        }
        #expect(gate.pass(within: 30), "the queued jobs ran after the executor went")
        #expect(ran.takeAll().sorted() == [0, 1, 2])
        #expect(
            eventually(seconds: 30) { Self.threadNames().filter { $0.hasPrefix("pm-let-go") }.isEmpty },
            "\(Self.threadNames())"
        )
    }

    /// The names of this process's threads, from /proc.
    static func threadNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines
            )
        }
    }
}
