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

/// A thread photomill owns, for work that blocks in C (zmq_poll, SQLite, libvips,
/// tesseract) and so must never run on Swift's cooperative pool. It starts at once, is
/// named for `top -H` and the benchmark's CPU per thread, and its end (the body's value)
/// is waited for without polling: `join()` from a thread, `value` from a task. Work that
/// comes as a stream of jobs goes to a `BlockingExecutor`, whose threads are these.
public final class OwnedThread<Value: Sendable>: Sendable {
    private let completion = Completion<Value>()

    /// `name`: at most 15 bytes are kept (Linux's limit), so names are short: `pm-committer`.
    public init(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Value) {
        let completion = completion
        let thread = Thread {
            Self.nameCurrentThread(name)
            completion.fulfil(body())
        }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }

    /// Blocks the calling thread until the body has returned.
    public func join() -> Value { completion.join() }

    /// Suspends the calling task until the body has returned.
    public var value: Value { get async { await completion.value } }

    public var isFinished: Bool { completion.isFinished }

    /// Names the calling thread. Not `Thread.name`, which Foundation applies only once the
    /// thread's creator has recorded its handle, a race with the thread's first steps.
    public static func nameCurrentThread(_ name: String) {
        let short = String(decoding: name.utf8.prefix(15), as: UTF8.self)
        try? short.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
    }
}
