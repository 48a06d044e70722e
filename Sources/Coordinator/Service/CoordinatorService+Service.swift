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

/// The coordinator in a `ServiceGroup`: its loop runs on a thread of its own (`zmq_poll`
/// and SQLite block; they never run on Swift's cooperative pool), and graceful shutdown
/// asks it to stop: commit what came in, hand back what is still out, tell the workers.
extension CoordinatorService: Service {
    public func run() async throws {
        let loop = OwnedThread(name: "pm-coordinator") { [self] in Result { try serve() } }
        let result = await withTaskCancellationOrGracefulShutdownHandler {
            await loop.value
        } onCancelOrGracefulShutdown: { [self] in
            stop()
        }
        _ = try result.get()
    }
}
