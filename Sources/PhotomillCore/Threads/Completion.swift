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

/// A value that arrives once, from another thread: waited for without polling, by a
/// thread (`join()`) or by a task (`value`, which suspends without blocking a thread).
public final class Completion<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `result` and `waiters` are guarded by `condition`; `result` is written
    // once, then only read.
    private let condition = NSCondition()
    private var result: Value?
    private var waiters: [CheckedContinuation<Value, Never>] = []

    public init() {}

    /// Gives the value to every waiter, present and future; only the first call counts.
    public func fulfil(_ value: Value) {
        let waiting: [CheckedContinuation<Value, Never>]? = condition.withLock {
            guard result == nil else { return nil }
            result = value
            condition.broadcast()
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in waiting ?? [] { waiter.resume(returning: value) }
    }

    /// Blocks the calling thread until the value has come.
    public func join() -> Value {
        condition.withLock {
            while result == nil { condition.wait() }
            return result!
        }
    }

    /// Suspends the calling task until the value has come.
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

    /// The value, if it has come; never waits.
    public var peek: Value? { condition.withLock { result } }

    public var isFinished: Bool { peek != nil }
}
