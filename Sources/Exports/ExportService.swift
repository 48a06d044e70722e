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
import Foundation
import Logging
import PhotomillCore
import ServiceLifecycle
import Synchronization

/// The exports of a running coordinator, as a `Service`: photos whose results were just
/// committed (`enqueue`) are written on a thread of its own, so file I/O never delays the
/// coordinator's loop. It first writes what an earlier, killed coordinator committed but
/// never exported; while it runs the manifest follows the library (`manifestQuiet`); at
/// graceful shutdown it exports what is still queued and writes the manifest.
public final class ExportService: Service, Sendable {
    private let exporter: Exporter
    private let logger: Logger
    private let executor = BlockingExecutor(name: "pm-exports")
    /// Photos to export, and whether an export of them is queued: ids that come while one
    /// runs are written by the next, together.
    private let pending = Mutex<(ids: Set<Int64>, started: Bool, queued: Bool)>(([], false, false))
    private let failureCount = Mutex(0)
    /// When the first change the manifest does not show yet came, and the last.
    private let manifestDue = Mutex<(first: MonotonicInstant?, last: MonotonicInstant)>((nil, .distantPast))

    public init(exporter: Exporter, logger: Logger) {
        self.exporter = exporter
        self.logger = logger
    }

    /// Export batches (and the manifest) that could not be written; the catalog keeps
    /// every result, and `photomill export` writes them again.
    public var failures: Int { failureCount.withLock { $0 } }

    /// Queues photos for export (and the manifest); callable from any thread, before or
    /// while the service runs.
    public func enqueue(_ photoIds: [Int64]) {
        pending.withLock { $0.ids.formUnion(photoIds) }
        let now = MonotonicInstant.now()
        manifestDue.withLock { due in
            due.last = now
            if due.first == nil { due.first = now }
        }
        scheduleExport()
    }

    /// The manifest is written again while the coordinator runs, once changes pause for
    /// `manifestQuiet` seconds, or `manifestLatest` seconds after the first one at the
    /// latest: it follows the library (photos new, gone, moved) without being rewritten
    /// for each commit.
    let manifestQuiet = 2.0, manifestLatest = 30.0

    public func run() async throws {
        // What an earlier coordinator committed but was killed before exporting, then
        // what came before `run`.
        executor.submit { [self] in attempt("export failed") { _ = try exporter.exportMissing() } }
        pending.withLock { $0.started = true }
        scheduleExport()
        let stopped = Completion<Void>()
        let follower = Task { [self] in await followManifest() }
        await withTaskCancellationOrGracefulShutdownHandler {
            await stopped.value
        } onCancelOrGracefulShutdown: {
            stopped.fulfil(())
        }
        follower.cancel()
        // What is still queued, then the manifest; the task waits without a thread.
        _ = await executor.completion { [self] _ in
            exportPending()
            attempt("cannot write the export manifest") { try exporter.writeManifest() }
        }?.value
        executor.close()
    }

    /// Writes the manifest on the executor (after the exports queued before it) when it
    /// is due; until cancelled.
    private func followManifest() async {
        while !Task.isCancelled {
            let now = MonotonicInstant.now()
            let wait: Double = manifestDue.withLock { due in
                guard let first = due.first else { return manifestQuiet }
                let at = min(due.last + manifestQuiet, first + manifestLatest)
                if now >= at { due.first = nil }
                return at - now
            }
            if wait <= 0 {
                executor.submit { [self] in attempt("cannot write the export manifest") { try exporter.writeManifest() }
                }
                continue
            }
            try? await Task.sleep(for: .seconds(wait))
        }
    }

    /// One export of what is pending, unless one is queued already (it will take these too).
    private func scheduleExport() {
        let schedule = pending.withLock { pending in
            guard pending.started, !pending.queued, !pending.ids.isEmpty else { return false }
            pending.queued = true
            return true
        }
        if schedule { executor.submit { [self] in exportPending() } }
    }

    private func exportPending() {
        let ids = pending.withLock { pending in
            pending.queued = false
            defer { pending.ids.removeAll() }
            return Array(pending.ids)
        }
        guard !ids.isEmpty else { return }
        attempt("export failed") { _ = try exporter.export(photoIds: ids) }
    }

    private func attempt(_ what: Logger.Message, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            failureCount.withLock { $0 += 1 }
            logger.error(what, metadata: ["exports": "\(exporter.root.path)", "error": "\(error)"])
        }
    }
}
