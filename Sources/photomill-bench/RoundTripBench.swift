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
import ZeroMQ

/// libzmq's own ceiling on this machine: a DEALER sends small messages to a ROUTER that
/// echoes them, with `window` messages outstanding (as a worker with that many credits
/// would), for `seconds`. No protobuf, no catalog.
struct RoundTripBench {
    var endpoint: String
    var window: Int
    var seconds: Double

    func run() throws -> Double {
        let context = try ZMQContext()
        let router = try ZMQSocket(context: context, type: .router)
        defer { router.close() }
        try router.set(.linger, to: 0)
        try router.bind(endpoint)
        let bound = try router.lastEndpoint
        // Timeouts, so that neither side can wait for ever on a message that never comes.
        try router.set(.receiveTimeout, to: 100)
        let stop = Atomic()
        let echo = OwnedThread(name: "pm-echo") {
            while !stop.isSet {
                guard let frames = try? router.receive() else { continue }
                _ = try? router.send(frames, dontWait: false)
            }
        }
        // The echo thread owns the router until it has stopped; only then may it close.
        defer {
            stop.set()
            echo.join()
        }

        let dealer = try ZMQSocket(context: context, type: .dealer)
        defer { dealer.close() }
        try dealer.set(.linger, to: 0)
        try dealer.set(.receiveTimeout, to: 2000)
        try dealer.connect(bound)
        let payload = [Data("PMILL1".utf8), Data([6]), Data(repeating: 0x2a, count: 96)]
        for _ in 0..<window { _ = try dealer.send(payload, dontWait: false) }
        var count = 0
        let start = MonotonicInstant.now()
        while MonotonicInstant.now() - start < seconds {
            guard try dealer.receive() != nil else {
                throw BenchError("libzmq round trips: an echo did not come back within 2 s")
            }
            count += 1
            _ = try dealer.send(payload, dontWait: false)
        }
        return Double(count) / (MonotonicInstant.now() - start)
    }
}

/// A flag set by one thread and read by another.
final class Atomic: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
