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
import ServiceLifecycle
import ZeroMQ

/// The worker in a `ServiceGroup`: its socket loop runs on a thread of its own, and
/// graceful shutdown asks it to drain: finish the jobs in hand, deliver their results,
/// wait (bounded) for the ACKs, say DISCONNECT.
extension WorkerService: Service {
    public func run() async throws {
        #if PHOTOMILL_FAULT_INJECTION
        FaultInjection.exitAtStart()
        #endif
        let loop = OwnedThread(name: "pm-worker") { [self] in Result { () throws(ZMQError) in try serve() } }
        try await withTaskCancellationOrGracefulShutdownHandler {
            await loop.value
        } onCancelOrGracefulShutdown: { [self] in
            stop()
        }.get()
    }
}
