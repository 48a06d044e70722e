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

/// Exponential backoff with jitter for retried tasks.
public struct RetryPolicy: Sendable {
    public var baseDelay: Double = 2
    public var maxDelay: Double = 300

    public init(baseDelay: Double = 2, maxDelay: Double = 300) {
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// The delay before attempt `attempts + 1`: base·2^(attempts-1), ±50 % jitter, capped.
    public func delay(afterAttempt attempts: Int) -> Double {
        var system = SystemRandomNumberGenerator()
        return delay(afterAttempt: attempts, using: &system)
    }

    /// The same, jittered with `generator` (a seeded one replays the same delays).
    public func delay(afterAttempt attempts: Int, using generator: inout some RandomNumberGenerator) -> Double {
        let exponential = baseDelay * pow(2, Double(max(0, attempts - 1)))
        return min(maxDelay, exponential * Double.random(in: 0.5...1.5, using: &generator))
    }
}
