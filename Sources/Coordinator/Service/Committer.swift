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
import PhotomillCore

/// Writes the coordinator's batches to the catalog on a thread of its own, so that the
/// socket loop goes on receiving and dispatching while SQLite commits the previous batch.
///
/// One batch is in the committer at a time. The loop submits a batch with the ACKs that
/// must wait for it, and learns that it is done through a pipe it polls (`wake`);
/// it then collects the report and sends the ACKs. While a batch is being written the
/// loop's next batch grows, so batches get larger exactly when SQLite is the bottleneck.
/// The loop alone calls it.
final class Committer {
    struct Done: Sendable {
        var report: Result<CommitReport, CatalogError>
        var acks: [PendingAck]
    }

    /// The coordinator polls its descriptor: readable when a batch is done.
    let wake: WakePipe
    private let catalog: Catalog
    private let retry: RetryPolicy
    private let metrics: CoordinatorMetrics?
    private let executor = BlockingExecutor(name: "pm-committer")
    /// The batch submitted whose report is not yet collected.
    private var inFlight: Completion<Done>?

    init(catalog: Catalog, retry: RetryPolicy, metrics: CoordinatorMetrics? = nil) throws {
        do {
            wake = try WakePipe()
        } catch {
            throw CatalogError(.unusable, path: catalog.path, "the committer \(error)")
        }
        self.catalog = catalog
        self.retry = retry
        self.metrics = metrics
    }

    /// Hands a batch over; only when not busy.
    func submit(_ batch: CommitBatch, acks: [PendingAck], now: Double) {
        precondition(inFlight == nil, "one batch at a time")
        let done = Completion<Done>()
        inFlight = done
        let (catalog, retry, metrics, wake) = (catalog, retry, metrics, wake)
        executor.submit {
            let started = MonotonicInstant.now()
            let report = Result { () throws(CatalogError) in try catalog.commit(batch, now: now, retry: retry) }
            if let metrics, case .success(let written) = report {
                metrics.committed(batch, written, seconds: MonotonicInstant.now() - started)
            }
            done.fulfil(Done(report: report, acks: acks))
            wake.signal()
        }
    }

    /// The finished batch, if there is one; `wait` blocks until the batch in flight is
    /// done. Empties the pipe, whose bytes only say "look".
    func collect(wait: Bool = false) -> Done? {
        wake.drain()
        guard let inFlight, let finished = wait ? inFlight.join() : inFlight.peek else { return nil }
        self.inFlight = nil
        return finished
    }

    /// Stops the thread once the batch it is writing, if any, is written.
    func stop() {
        executor.shutdown()
    }
}
