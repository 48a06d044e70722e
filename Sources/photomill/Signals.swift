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
import Synchronization
import UnixSignals

/// A long-running command's first step. Until its `ServiceGroup` traps SIGTERM and SIGINT
/// (while the catalog opens, its schema migrates, the sockets bind), their default action
/// would end the process at once: no drain, and exit status "killed by SIGTERM", which a
/// supervisor that stops a service just started reads as a failure. From here they are
/// only recorded; `SecondSignalExits`, the group's first service, sends the recorded one
/// again once the group listens, and the group drains as for any other. `hangUp`: SIGHUP
/// is ignored until `Reloads` traps it (a start scans every folder and reads the
/// allow-list anyway).
enum EarlySignals {
    private static let stop = Atomic<Bool>(false)

    static func trap(hangUp: Bool = false) {
        // A C handler captures nothing; storing to an atomic is async-signal-safe.
        let record: @convention(c) (Int32) -> Void = { _ in EarlySignals.stop.store(true, ordering: .relaxed) }
        signal(SIGTERM, record)
        signal(SIGINT, record)
        if hangUp { signal(SIGHUP, SIG_IGN) }
    }

    /// Whether SIGTERM or SIGINT came before the group trapped them.
    static var stopRequested: Bool { stop.load(ordering: .relaxed) }
}

/// The signals every long-running command handles, beside its `ServiceGroup`'s graceful
/// shutdown on SIGTERM and SIGINT: a second one means "now", and exits at once (130)
/// instead of waiting for the drain. First in the group, so stopped last.
struct SecondSignalExits: Service {
    func run() async throws {
        var seen = 0
        // The group traps the signals before it starts its services: a stop recorded
        // before that is sent again here and reaches it (and this sequence) as any other.
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        if EarlySignals.stopRequested { kill(getpid(), SIGTERM) }
        for await _ in signals.cancelOnGracefulShutdown() {
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
