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
import Testing

/// Runs each test case of a suite on threads of its own, at most `OwnThreadTrait.width`
/// cases at a time across every suite that carries the trait.
///
/// swift-testing runs tests as tasks on Swift's cooperative pool, which has one thread per
/// core: two on the CI machine. A test that waits synchronously — for a child process, a
/// settle window, a socket, a line on stderr — holds one of those threads while it waits,
/// so two waiting tests held up the whole suite: it took 799 s for about 1,000 s of CPU
/// on two cores. The integration suites start real processes and wait on them; under this
/// trait their waits overlap, and the cooperative pool stays free for the other targets.
///
/// The cap keeps a 2-core machine from starting every integration test's processes at
/// once (their bounds are generous, but memory and the kernel's process table are not).
/// `PHOTOMILL_TEST_WIDTH` sets it; the default is three cases per core, at least four.
/// A suite whose cases mostly wait (`queued: false`: the conformance scenarios, one at a
/// time, timing heartbeats) does not queue for a place: queued behind everything else, its
/// chain of cases was the suite's last minute and a half.
public struct OwnThreadTrait: SuiteTrait, TestTrait, TestScoping {
    var queued = true

    public var isRecursive: Bool { true }

    /// Test cases only: a suite that held a place for as long as it runs would keep its
    /// own cases waiting for one.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // A nested suite carrying the trait again: the outer scope has its place already.
        if Self.isInside {
            try await function()
            return
        }
        guard queued else {
            try await run(function)
            return
        }
        await Self.admission.enter()
        do {
            try await run(function)
        } catch {
            await Self.admission.leave()
            throw error
        }
        await Self.admission.leave()
    }

    private func run(_ function: @Sendable () async throws -> Void) async throws {
        try await Self.$isInside.withValue(true) {
            try await withTaskExecutorPreference(ThreadPerJob.shared) { try await function() }
        }
    }

    @TaskLocal static var isInside = false

    public static let width: Int = {
        if let text = ProcessInfo.processInfo.environment["PHOTOMILL_TEST_WIDTH"], let value = Int(text), value > 0 {
            return value
        }
        return max(4, 3 * ProcessInfo.processInfo.activeProcessorCount)
    }()

    static let admission = Admission(width: width)
}

extension Trait where Self == OwnThreadTrait {
    /// See `OwnThreadTrait`.
    public static var ownThread: Self { Self() }

    /// See `OwnThreadTrait`: on threads of its own, without waiting for a place.
    public static func ownThread(queued: Bool) -> Self { Self(queued: queued) }
}

/// Runs every job it is given on a new thread: a job that blocks holds only its own.
/// (Jobs of a test that awaits are short; a synchronous test is one job as long as it.)
final class ThreadPerJob: TaskExecutor {
    static let shared = ThreadPerJob()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        // The size of a main thread's stack: SQLite, libvips and the test bodies' own
        // frames run here, not on the small stacks of the cooperative pool.
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// At most `width` holders; the others wait in the order they came.
actor Admission {
    private let width: Int
    private var held = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(width: Int) { self.width = width }

    func enter() async {
        if held < width {
            held += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the place to the first waiter, if any (`held` stays the same), else frees it.
    func leave() {
        if waiting.isEmpty {
            held -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
