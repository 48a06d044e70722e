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

/// Every lease of the coordinator, from its grant (or its discovery in the catalog at start)
/// until a result settles it, it is taken back, or it is handed back; and its way into the
/// catalog. The rules exactly-once rests on are kept here, and only here:
///
/// - **One token per task in flight.** A task is leased again only after its lease was
///   settled or released and the catalog shows it pending again; until a lease is committed
///   the catalog still shows its tasks pending, so every page is filtered against the leases
///   not yet written (`unwritten(from:)`).
/// - **A result settles at most one lease.** `claim` takes the lease out of the table: a
///   second answer under its token finds nothing (the scheduler ACKs it as discarded).
/// - **A lease taken back comes back exactly once**: one `Release` per lease, whichever of
///   expiry, a lost worker, the end of a previous run's grace, a JOB that could not be sent
///   or the coordinator's shutdown comes first.
///
/// A lease reaches the catalog with a later commit (`takeForCommit`), and when its job's
/// result came in time (`leaseWriteDelay`) it is never written at all: its successful kinds
/// are *folded* into their results (`ReportedResult.pagedUpdatedAt`), one write instead of
/// two (`Catalog.commit`).
///
/// Where the next changes go (docs/architecture.md): a JOB that must wait until its lease is
/// written waits for `committed()`, which is when `writing` becomes written; leases of a
/// previous run released at start are `adopt` followed by `releasePreviousRun()`.
///
/// Tested alone, event by event and against a model (Tests/CoordinatorTests/LeaseTableTests.swift).
struct LeaseTable {
    /// A lease in the table.
    struct Entry {
        /// As the catalog records it (wall-clock times).
        var lease: Lease
        let jobID: String
        let origin: Origin
        /// The connection of the worker holding it; nil for a previous run's lease whose
        /// worker has not come back.
        var holder: Data?
        var state: State
        let grantedAt: MonotonicInstant

        enum Origin: Equatable {
            /// Granted by this run.
            case granted
            /// Found in the catalog at start: its worker knows it by another coordinator's job
            /// id, so it is claimed by its token alone.
            case previousRun
        }

        enum State: Equatable {
            /// Its job runs until `deadline`, unless EXTENDed.
            case running(deadline: MonotonicInstant)
            /// Taken back (its release is on its way to the catalog); it keeps its worker's
            /// slot until the late answer comes.
            case expired
        }

        var isRunning: Bool { if case .running = state { true } else { false } }
    }

    /// A lease granted and not yet written: its kinds, and those folded into their results.
    private struct Unwritten {
        var lease: Lease
        var folded: Set<Kind> = []
    }

    /// By lease token.
    private(set) var entries: [String: Entry] = [:]
    private var tokenForJob: [String: String] = [:]
    /// Lease tokens by the connection holding them (expired ones included).
    private var heldBy: [Data: Set<String>] = [:]
    private var departures = Departures()
    private var tokens: LeaseTokens

    /// Leases granted and not yet handed to a commit, in grant order.
    private var unwrittenOrder: [String] = []
    private var unwritten: [String: Unwritten] = [:]
    /// The leases of the batch the committer is writing (their kinds, folded ones included).
    private var writing: [Lease] = []
    private var extensions: [(token: String, expiresAt: Double)] = []
    private var releases: [Release] = []

    init(run: String? = nil) {
        tokens = LeaseTokens(run: run)
    }

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// Jobs `peer`'s worker holds (expired ones included: they occupy a slot).
    func heldCount(by peer: Data) -> Int { heldBy[peer]?.count ?? 0 }

    /// Whether a message under `token` for a job its sender does not hold may come from a
    /// conforming worker: the job was settled or taken back (this run or an earlier one),
    /// not leased to someone else now.
    func isResend(_ token: String) -> Bool {
        entries[token] == nil && tokens.couldHaveIssued(token)
    }

    // MARK: Grants and the leases of a previous run

    /// A new lease of `job` for the worker `worker` on `peer`, running for `seconds`.
    mutating func grant(
        _ job: PendingJob,
        to peer: Data,
        worker: String,
        seconds: Double,
        at now: ClockReading
    ) -> (jobID: String, token: String) {
        let (jobID, token) = tokens.next()
        let lease = Lease(
            photoId: job.photoId,
            kinds: job.kinds,
            token: token,
            worker: worker,
            leasedAt: now.wall,
            expiresAt: now.wall + seconds,
            pagedUpdatedAt: job.updatedAt
        )
        insert(
            Entry(
                lease: lease,
                jobID: jobID,
                origin: .granted,
                holder: peer,
                state: .running(deadline: now.monotonic + seconds),
                grantedAt: now.monotonic
            ),
            token: token
        )
        unwrittenOrder.append(token)
        unwritten[token] = Unwritten(lease: lease)
        return (jobID, token)
    }

    /// Leases a previous coordinator granted, found in the catalog (already written): each
    /// runs for at least `grace` seconds more (its stored wall-clock expiry becomes a
    /// deadline on the monotonic clock here), and its worker may claim it by token.
    mutating func adopt(_ leases: [Lease], grace: Double, at now: ClockReading) {
        for var lease in leases {
            let remaining = Swift.max(lease.expiresAt - now.wall, grace)
            lease.expiresAt = now.wall + remaining
            insert(
                Entry(
                    lease: lease,
                    jobID: Self.previousRunPrefix + lease.token.prefix(12),
                    origin: .previousRun,
                    holder: nil,
                    state: .running(deadline: now.monotonic + remaining),
                    grantedAt: now.monotonic - Swift.max(0, now.wall - lease.leasedAt)
                ),
                token: lease.token
            )
        }
    }

    /// The job ids of the leases `adopt` found.
    static let previousRunPrefix = "restart-"

    /// The worker `worker` is connected on `peer` (again): the leases it holds that still
    /// run, on an older connection or from a previous run, move to this one, where their
    /// results will come. Those that expired (released already) leave the table and free
    /// their slots: their JOBs may never have reached the worker (sent to a connection it
    /// had left); a late answer is still taken (`departed`).
    mutating func attach(worker: String, to peer: Data) {
        for (token, entry) in entries where entry.lease.worker == worker && entry.holder != peer {
            guard entry.isRunning else {
                if let entry = remove(token) { departures.remember(entry) }
                continue
            }
            if let old = entry.holder { heldBy[old]?.remove(token) }
            entries[token]?.holder = peer
            heldBy[peer, default: []].insert(token)
        }
    }

    // MARK: What workers say

    /// The lease a RESULT or FAIL of `jobID` under `token` from `peer` answers, taken out of
    /// the table: the sender's own, by its connection or its worker id; a previous run's by
    /// token alone. Nil when the sender holds no such lease (see `departed`).
    mutating func claim(_ jobID: String, token: String, from peer: Data, worker: String) -> Entry? {
        guard let entry = entries[token], entry.jobID == jobID || entry.origin == .previousRun,
            entry.holder == peer || entry.lease.worker == worker
        else { return nil }
        return remove(token)
    }

    /// A lease the coordinator settles itself (a file it could not read to send), taken
    /// out of the table like a claimed one.
    mutating func settle(_ token: String) -> Entry? {
        remove(token)
    }

    /// The lease of `jobID`, taken back from a worker taken for dead, if its token is `token`:
    /// its late answer is recorded (the catalog finds the token stale). Forgotten once taken.
    mutating func departed(_ jobID: String, token: String) -> Entry? {
        departures.take(jobID, token: token)
    }

    /// Whether `jobID` under `token` is a job taken back from a worker taken for dead.
    func isDeparted(_ jobID: String, token: String) -> Bool { departures.holds(jobID, token: token) }

    /// The running lease `peer` holds as `jobID` under `token`, for an EXTEND.
    func running(_ jobID: String, token: String, heldBy peer: Data) -> Entry? {
        guard tokenForJob[jobID] == token, let entry = entries[token], entry.holder == peer else { return nil }
        return entry
    }

    /// EXTEND: the lease's deadline moves to `deadline` if that is later; the catalog's
    /// expiry follows, on the wall clock.
    mutating func extend(_ token: String, to deadline: MonotonicInstant, at now: ClockReading) {
        guard var entry = entries[token], case .running(let current) = entry.state else { return }
        if deadline > current {
            entry.state = .running(deadline: deadline)
            entry.lease.expiresAt = now.wall + (deadline - now.monotonic)
            entries[token] = entry
        }
        extensions.append((token, entry.lease.expiresAt))
    }

    /// A claimed lease's successful kinds: when the lease is not written yet (and its job
    /// came from a page), they are folded into their results, and the lease is written only
    /// for its other kinds. Returns each folded kind's `updatedAt` as paged.
    mutating func fold(_ token: String, succeeded kinds: some Sequence<Kind>) -> [Kind: Double] {
        guard var pending = unwritten[token], !pending.lease.pagedUpdatedAt.isEmpty else { return [:] }
        var folded: [Kind: Double] = [:]
        for kind in kinds {
            guard let index = pending.lease.kinds.firstIndex(of: kind) else { continue }
            folded[kind] = pending.lease.pagedUpdatedAt[index]
            pending.folded.insert(kind)
        }
        unwritten[token] = pending
        return folded
    }

    // MARK: Taking leases back

    /// Running leases past their deadline (those of a previous run's workers not back yet
    /// wait for `releasePreviousRun`): each is released, once, and stays in its worker's
    /// slot. Returns them.
    mutating func expire(at now: ClockReading, message: (Entry) -> String) -> [Entry] {
        var expired: [Entry] = []
        for (token, entry) in entries where entry.holder != nil {
            guard case .running(let deadline) = entry.state, now.monotonic > deadline else { continue }
            entries[token]?.state = .expired
            releases.append(Release(lease: entry.lease, reason: .leaseExpired, message: message(entry)))
            expired.append(entry)
        }
        return expired
    }

    /// A previous run's leases whose worker did not come back: released, and remembered in
    /// case it comes back late.
    mutating func releasePreviousRun(message: (Entry) -> String) {
        for (token, entry) in entries where entry.holder == nil {
            guard let entry = remove(token) else { continue }
            departures.remember(entry)
            releases.append(Release(lease: entry.lease, reason: .workerLost, message: message(entry)))
        }
    }

    /// The worker on `peer` is gone: every lease it held comes back (those still running
    /// with a release; expired ones had theirs). A lost worker's are remembered in case it
    /// was only slow.
    mutating func dropHolder(_ peer: Data, reason: Release.Reason, message: String) {
        for token in heldBy[peer] ?? [] {
            guard let entry = remove(token) else { continue }
            if entry.isRunning { releases.append(Release(lease: entry.lease, reason: reason, message: message)) }
            if reason == .workerLost { departures.remember(entry) }
        }
        heldBy[peer] = nil
    }

    /// What became of a JOB that never left.
    enum Withdrawal {
        /// Its lease was never written: forgotten, and its job may go out again.
        case forgotten(Entry)
        /// Its lease is (being) written: handed back without using an attempt.
        case handedBack(Entry)
    }

    /// The JOB under `token` could not be sent (the socket refused it).
    mutating func withdraw(_ token: String) -> Withdrawal? {
        guard let entry = remove(token) else { return nil }
        if unwritten.removeValue(forKey: token) != nil {
            unwrittenOrder.removeAll { $0 == token }
            return .forgotten(entry)
        }
        releases.append(
            Release(
                lease: entry.lease,
                reason: .notSent,
                message: "the job could not be sent to worker \(entry.lease.worker)"
            )
        )
        return .handedBack(entry)
    }

    /// A claimed lease whose job its worker handed back (a draining worker's FAIL
    /// `shutting-down`): released without using an attempt.
    mutating func handBack(_ lease: Lease, message: String) {
        releases.append(Release(lease: lease, reason: .shutdown, message: message))
    }

    /// The coordinator stops: every running lease is handed back, without using an attempt.
    mutating func handBackAll(message: String) {
        for entry in entries.values where entry.isRunning {
            releases.append(Release(lease: entry.lease, reason: .shutdown, message: message))
        }
        entries.removeAll()
        tokenForJob.removeAll()
        heldBy.removeAll()
    }

    // MARK: The way into the catalog

    /// Leases, EXTENDs or releases wait for a commit.
    var hasWrites: Bool { !unwritten.isEmpty || !extensions.isEmpty || !releases.isEmpty }

    /// The jobs of `page` whose tasks the catalog shows pending only because their leases
    /// are not written yet are left out (the leases of the batch being written, too: a
    /// page may be read before or after it commits).
    func leavingOutUnwritten(_ page: [PendingJob]) -> [PendingJob] {
        guard !unwritten.isEmpty || !writing.isEmpty else { return page }
        var out: Set<TaskKey> = []
        for lease in writing + unwritten.values.map(\.lease) {
            for kind in lease.kinds { out.insert(TaskKey(photoId: lease.photoId, kind: kind)) }
        }
        return page.filter { job in !job.kinds.contains { out.contains(TaskKey(photoId: job.photoId, kind: $0)) } }
    }

    /// The leases' part of a commit.
    struct Writes {
        /// Each lease with its kinds to write (folded ones left out; none left, no lease).
        var leases: [Lease] = []
        var extensions: [(token: String, expiresAt: Double)] = []
        var releases: [Release] = []

        var isEmpty: Bool { leases.isEmpty && extensions.isEmpty && releases.isEmpty }
    }

    /// The leases' part of the next commit, taken out of the table; nil when it has nothing
    /// and `evenIfEmpty` is false (the commit has nothing else either). The lease of a job
    /// still running and younger than `delay` waits for its result (one write then). The
    /// leases handed over stay out of the pages until `committed()`.
    mutating func takeForCommit(at now: MonotonicInstant, keepingBack delay: Double, evenIfEmpty: Bool) -> Writes? {
        var writes = Writes(extensions: extensions, releases: releases)
        var kept: [String] = []
        var handed: [Lease] = []
        for token in unwrittenOrder {
            guard let pending = unwritten[token] else { continue }
            if let entry = entries[token], entry.isRunning, now - entry.grantedAt < delay {
                kept.append(token)
                continue
            }
            // A lease that waited may have been extended meanwhile.
            var lease = entries[token]?.lease ?? pending.lease
            handed.append(lease)
            // The catalog writes the kinds not folded; `pagedUpdatedAt` served the folding.
            lease.kinds.removeAll(where: pending.folded.contains)
            lease.pagedUpdatedAt = []
            if !lease.kinds.isEmpty { writes.leases.append(lease) }
        }
        if writes.isEmpty && handed.isEmpty && !evenIfEmpty { return nil }
        for lease in handed { unwritten[lease.token] = nil }
        unwrittenOrder = kept
        writing = handed
        extensions.removeAll()
        releases.removeAll()
        return writes
    }

    /// The commit `takeForCommit` fed is written.
    mutating func committed() {
        writing.removeAll()
    }

    // MARK: Bookkeeping

    private mutating func insert(_ entry: Entry, token: String) {
        entries[token] = entry
        tokenForJob[entry.jobID] = token
        if let holder = entry.holder { heldBy[holder, default: []].insert(token) }
    }

    /// Takes a lease out; one not written yet is still written, as it last was (EXTENDed).
    private mutating func remove(_ token: String) -> Entry? {
        guard let entry = entries.removeValue(forKey: token) else { return nil }
        tokenForJob[entry.jobID] = nil
        if let holder = entry.holder { heldBy[holder]?.remove(token) }
        unwritten[token]?.lease = entry.lease
        return entry
    }
}
