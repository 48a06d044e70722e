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
import MillProtocol
import PhotomillCore
import PhotomillTestSupport

@testable import Coordinator

/// A scheduler, a manual clock, and a stand-in for everything the service does with the
/// scheduler's actions: sends are recorded, pages come from `pending`, and a batch handed
/// to the committer is settled at the start of the next turn (as the committer thread
/// would have written it by then), with the report the catalog would give: every result
/// committed but those whose token is in `stale`.
struct Harness {
    var clock = ManualClock()
    var scheduler: Scheduler
    /// The due work the "catalog" pages from (tests keep it as the catalog would be).
    var pending: [PendingJob] = []
    var requeueMark: Int64 = 0
    /// What operators paused, as the "catalog" has it.
    var paused: [Kind: Pause] = [:]
    /// Lease tokens the "catalog" no longer holds: their results are reported stale.
    var stale: Set<String> = []
    private(set) var jobs: [(order: JobOrder, peer: Data)] = []
    /// Each `.sendJobs`: the jobs one worker got in one message (or, as bytes, one each).
    private(set) var jobMessages: [(orders: [JobOrder], peer: Data)] = []
    private(set) var messages: [(message: ControlMessage, peer: Data)] = []
    private(set) var commits: [CommitBatch] = []
    /// The batch handed to the committer and not yet settled, with its ACKs.
    private(set) var inCommit: (batch: CommitBatch, acks: [PendingAck])?
    private(set) var exported: [Int64] = []
    private(set) var pagesRead: [PageRequest] = []
    /// What the scheduler logged (`.log` actions), in order.
    private(set) var logs: [SchedulerLog] = []

    init(_ configure: (inout CoordinatorConfiguration) -> Void = { _ in }) {
        var configuration = CoordinatorConfiguration(bind: [], roots: [], kinds: Set(Kind.allCases))
        configuration.exitWhenDone = true
        configure(&configuration)
        scheduler = Scheduler(configuration: configuration, at: clock.now, run: "t")
        run(scheduler.start())
    }

    // MARK: Events

    mutating func connect(
        _ id: String,
        slots: Int = 4,
        kinds: Set<Kind> = Set(Kind.allCases),
        languages: Set<String> = ["eng"],
        roots: [String] = ["/"],
        key: String? = nil,
        keyAllowed: Bool = true,
        interval: Double = 1
    ) {
        let hello = WorkerHello(
            workerId: id,
            host: "host-" + id,
            slots: slots,
            kinds: kinds,
            ocrLanguages: kinds.contains(.ocr) ? languages : [],
            pathRoots: roots,
            heartbeatInterval: interval
        )
        run(scheduler.ready(hello, from: Self.peer(id), key: key, keyAllowed: keyAllowed, at: clock.now))
    }

    /// READY of worker `id` again, on its connection number `attempt` (`peer(id)` is its
    /// first), offering hash alone; returns that connection.
    @discardableResult
    mutating func reconnect(_ id: String, attempt: Int, slots: Int) -> Data {
        let peer = Data("\(id)#\(attempt)".utf8)
        let hello = WorkerHello(
            workerId: id,
            host: "host-" + id,
            slots: slots,
            kinds: [.hash],
            ocrLanguages: [],
            pathRoots: ["/"]
        )
        run(scheduler.ready(hello, from: peer, key: nil, keyAllowed: true, at: clock.now))
        return peer
    }

    mutating func send(_ message: WorkerMessage, from id: String) {
        run(scheduler.received(message, from: Self.peer(id), at: clock.now))
    }

    /// A RESULT that succeeds every kind of `order` (a hash for each, for brevity).
    mutating func succeed(_ order: JobOrder, from id: String) {
        succeed(order, fromPeer: Self.peer(id))
    }

    /// `succeed`, from a given connection (a worker's second, after a reconnect).
    mutating func succeed(_ order: JobOrder, fromPeer peer: Data) {
        let reports = order.job.kinds.map {
            KindReport(kind: $0, outcome: .hash(md5: "m", sha256: "s"), recipe: "test/1")
        }
        run(
            scheduler.received(
                .result(jobID: order.jobID, token: order.token, reports: reports),
                from: peer,
                at: clock.now
            )
        )
    }

    /// `succeed`, and the "catalog" no longer has those tasks pending.
    mutating func finish(_ order: JobOrder, from id: String) {
        succeed(order, from: id)
        pending = pending.compactMap { job in
            guard job.photoId == order.job.photoId else { return job }
            var job = job
            job.keepKinds { !order.job.kinds.contains($0) }
            return job.kinds.isEmpty ? nil : job
        }
    }

    /// One turn of the service's loop: the committer's report, the timers, then dispatch.
    mutating func turn() {
        settle()
        run(scheduler.tick(at: clock.now))
        run(scheduler.dispatch(at: clock.now))
    }

    /// Time passes in turns of `step` seconds; `between` runs before each turn.
    mutating func pass(_ seconds: Double, step: Double = 0.1, between: (inout Harness) -> Void = { _ in }) {
        var left = seconds
        while left > 1e-9 {
            clock.advance(min(step, left))
            left -= step
            between(&self)
            turn()
        }
    }

    /// The committer's answer for `inCommit`: every result committed except those whose
    /// token is in `stale` (the catalog found their lease no longer held).
    mutating func settle() {
        guard let (batch, acks) = inCommit else { return }
        inCommit = nil
        var report = CommitReport()
        for reported in batch.results {
            if stale.contains(reported.result.leaseToken) {
                report.stale.insert(reported.result.leaseToken)
            } else {
                report.committed.insert(reported.result.leaseToken)
                report.touchedPhotos.insert(reported.result.photoId)
            }
        }
        run(scheduler.committed(report, acks: acks))
    }

    /// Settles the batch in the committer, then flushes and settles what waited behind it:
    /// everything received so far is written (the service's `flushAndWait`).
    mutating func commitAll() {
        settle()
        run(scheduler.flush(at: clock.now))
        settle()
    }

    mutating func run(_ actions: [SchedulerAction]) {
        for action in actions {
            switch action {
            case .sendJobs(let orders, let peer):
                jobs += orders.map { ($0, peer) }
                jobMessages.append((orders, peer))
            case .send(let message, let peer): messages.append((message, peer))
            case .commit(let batch, let acks, _):
                precondition(inCommit == nil, "the scheduler committed while the committer was busy")
                inCommit = (batch, acks)
                commits.append(batch)
            case .readSteering:
                run(scheduler.steeringRead(requeueMark: requeueMark, paused: Set(paused.keys), at: clock.now))
            case .fetchPage(let request):
                pagesRead.append(request)
                // As the catalog pages: the tier's kinds asked for, after the position, in
                // (rank, photo) order.
                let page = pending.compactMap { job -> PendingJob? in
                    var job = job
                    job.keepKinds { request.kinds.contains($0) && $0.tier == request.tier }
                    return job.kinds.isEmpty || job.position <= request.after ? nil : job
                }.sorted { $0.position < $1.position }
                scheduler.pageFetched(Array(page.prefix(request.limit)), for: request, at: clock.now)
            case .committedPhotos(let ids): exported += ids
            case .log(let entry): logs.append(entry)
            }
        }
    }

    // MARK: Reading what happened

    static func peer(_ id: String) -> Data { Data((id + "#1").utf8) }

    /// The session of worker `id` (on its first connection), if connected.
    func session(_ id: String) -> WorkerSession? { scheduler.workers[Self.peer(id)] }

    /// The jobs worker `id` may still take, if connected.
    func credit(_ id: String) -> Int? { session(id).map(scheduler.credit(of:)) }

    /// When the lease under `token` expires, while it runs.
    func deadline(_ token: String) -> MonotonicInstant? {
        guard case .running(let deadline) = scheduler.leases.entries[token]?.state else { return nil }
        return deadline
    }

    /// Why each kind waits, as the scheduler last found (its next commit writes it).
    var waits: [Kind: WaitReason]? { scheduler.waits }

    /// Whether the lease under `token` is still out (running or expired).
    func isOut(_ token: String) -> Bool { scheduler.leases.entries[token] != nil }

    func jobs(to id: String) -> [JobOrder] { jobs.filter { $0.peer == Self.peer(id) }.map(\.order) }

    func messages(to id: String) -> [ControlMessage] { messages.filter { $0.peer == Self.peer(id) }.map(\.message) }

    var releases: [Release] { commits.flatMap(\.releases) }

    var results: [ReportedResult] { commits.flatMap(\.results) }

    /// The ACKs a worker got: job ids committed and discarded.
    func acks(to id: String) -> (committed: [String], discarded: [String]) {
        messages(to: id).reduce(into: ([], [])) { sum, message in
            if case .ack(let committed, let discarded) = message {
                sum.committed += committed
                sum.discarded += discarded
            }
        }
    }

    func disconnects(to id: String) -> [String] {
        messages(to: id).compactMap { if case .disconnect(let reason) = $0 { reason.description } else { nil } }
    }

    func heartbeats(to id: String) -> Int {
        messages(to: id).filter { $0 == .heartbeat }.count
    }

    mutating func forgetSends() {
        jobs.removeAll()
        jobMessages.removeAll()
        messages.removeAll()
    }
}

/// Photos 1…n, each due for `kinds` (hash and metadata: one job each), at /photos/N.jpg.
func photos(_ count: Int, kinds: [Kind] = [.hash, .metadata], size: Int64 = 1000, rank: Int64 = 0) -> [PendingJob] {
    (1...Int64(count)).map {
        PendingJob(photoId: $0, path: "/photos/\($0).jpg", size: size, mtimeNs: 1, kinds: kinds, rank: rank)
    }
}
