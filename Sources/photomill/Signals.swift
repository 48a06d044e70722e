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

import Catalog
import Coordinator
import Foundation
import Logging
import PhotomillCore
import ServiceLifecycle
import UnixSignals

/// The signals every long-running command handles, beside its `ServiceGroup`'s graceful
/// shutdown on SIGTERM and SIGINT: a second one means "now", and exits at once (130)
/// instead of waiting for the drain. First in the group, so stopped last.
struct SecondSignalExits: Service {
    func run() async throws {
        var seen = 0
        for await _ in await UnixSignalsSequence(trapping: .sigterm, .sigint).cancelOnGracefulShutdown() {
            seen += 1
            if seen >= 2 { exit(130) }
        }
    }
}

/// SIGHUP (`systemctl reload`): the coordinator scans every folder again, as
/// `photomill scan` asks, and re-reads its allow-list (it also notices the file changing).
/// Without this, SIGHUP's default action would end the process without draining.
struct Reloads: Service {
    let admission: Admission?
    let catalog: Catalog
    let logger: Logger

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            admission?.reload()
            do {
                _ = try catalog.requestScan(paths: nil, origin: "signal", now: WallClock.now())
                logger.notice(
                    "SIGHUP: scanning every folder again\(admission == nil ? "" : " and reading the allow-list again")"
                )
            } catch {
                logger.error("SIGHUP: cannot ask for a rescan", metadata: ["error": "\(error)"])
            }
        }
    }
}
