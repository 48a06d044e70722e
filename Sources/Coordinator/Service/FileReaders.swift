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

/// Reads the files of JOBs for workers fed bytes, on threads of its own, so that the
/// coordinator's loop — and with it heartbeats, results and the catalog's commits — never
/// waits for a disk (PROTOCOL.md, "File transfer"; docs/benchmarks.md, "Bytes at line
/// rate"). Reads start in the order they were asked for, `threads` at a time; the files
/// read and not yet handed to libzmq hold at most `budget` bytes (a file larger than the
/// budget is read alone), and credits bound what each worker is sent. libzmq sends the
/// frames without copying them and frees them once written.
///
/// The loop alone calls it (submit, collect, release, stop): what waits for the budget
/// is the loop's, and only the reads themselves run on the executor's threads.
final class FileReaders {
    struct Request: Sendable {
        let order: JobOrder
        let peer: Data
    }

    struct Read: Sendable {
        let request: Request
        let payload: Result<(frames: [Data], sidecar: BlobTransfer.SidecarPayload), BlobTransfer.Failure>
        /// What it holds of the budget, until `release`d.
        let reserved: Int64
    }

    /// The loop polls its descriptor: readable when reads are done.
    let wake: WakePipe
    let budget: Int64
    private let executor: BlockingExecutor<Void>
    private let done = Mailbox<Read>()
    /// Asked for, not yet started: they wait for the budget.
    private var waiting: [Request] = []
    private var reserved: Int64 = 0
    /// Reads started and not yet collected.
    private(set) var inFlight = 0

    init(threads count: Int = 2, budget: Int64 = 1 << 30) throws(WakePipe.Failure) {
        wake = try WakePipe()
        self.budget = budget
        executor = BlockingExecutor(name: "pm-reader", threads: count)
    }

    /// Asks for the file of `request` to be read.
    func submit(_ request: Request) {
        waiting.append(request)
        startReads()
    }

    /// The reads done since the last call (when `wake` is readable). A read that failed
    /// holds nothing of the budget.
    func collect() -> [Read] {
        wake.drain()
        let reads = done.takeAll()
        inFlight -= reads.count
        for read in reads { reserved -= read.request.order.job.size - read.reserved }
        startReads()
        return reads
    }

    /// A read's bytes were handed to libzmq (or dropped): its share of the budget is free.
    func release(_ read: Read) {
        guard read.reserved > 0 else { return }
        reserved -= read.reserved
        startReads()
    }

    /// Files asked for and not yet handed back, and the bytes they hold.
    var backlog: (requests: Int, bytes: Int64) { (waiting.count, reserved) }

    /// Ends the threads once their reads are done; reads not started are dropped.
    func stop() {
        waiting.removeAll()
        executor.shutdown(droppingQueued: true)
    }

    /// The oldest request first, once its bytes fit (or nothing else is held).
    private func startReads() {
        while let first = waiting.first {
            let size = first.order.job.size
            guard reserved == 0 || reserved + size <= budget else { return }
            waiting.removeFirst()
            reserved += size
            inFlight += 1
            let (done, wake) = (done, wake)
            executor.submit {
                let payload = BlobTransfer.payload(of: first.order.job)
                let held: Int64 = if case .success = payload { size } else { 0 }
                done.post(Read(request: first, payload: payload, reserved: held))
                wake.signal()
            }
        }
    }
}
