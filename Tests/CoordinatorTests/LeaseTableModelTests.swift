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
import PhotomillTestSupport
import Testing

@testable import Coordinator

/// The `LeaseTable` driven by seeded random sequences of what happens to leases — grants
/// from pages of a modelled catalog, answers (in time, late, twice, from the wrong worker),
/// EXTENDs, expiries, lost and reconnecting workers, JOBs that never left, commits that
/// land before or after the next page — checked after every step against a simple model:
/// which tokens each worker holds and which are still running. Every commit is applied to
/// a model of the catalog with `Catalog.commit`'s rules (a lease leases a pending task; a
/// result counts under its held token, or, folded, when the task is still as paged; a
/// release frees a task leased under its token).
///
/// Checked: one running lease per task; a token settled by at most one answer; each lease
/// taken back at most once, a dropped worker's running ones at once; every task the table
/// lets a page through is one no running lease holds; at the end, after every worker is
/// gone and every commit landed, no task of the catalog is left leased.
@Suite("LeaseTable against a model")
struct LeaseTableModelTests {
    static let sequences = 300
    static let steps = 400

    @Test("seeded random sequences keep exactly-once", arguments: [UInt64(2_025)])
    func randomSequences(seed: UInt64) throws {
        for sequence in 0..<Self.sequences {
            var run = ModelRun(generator: SplitMix64(seed: seed, stream: UInt64(sequence)))
            for step in 0..<Self.steps {
                run.step()
                let problems = run.check()
                guard problems.isEmpty else {
                    Issue.record(
                        "sequence \(sequence), step \(step) (\(run.lastEvent)): \(problems.joined(separator: "; "))"
                    )
                    return
                }
            }
            let problems = run.finish()
            guard problems.isEmpty else {
                Issue.record("sequence \(sequence), at its end: \(problems.joined(separator: "; "))")
                return
            }
        }
    }
}

/// One random sequence: the table, the model, and the modelled catalog.
private struct ModelRun {
    var generator: SplitMix64
    var clock = ManualClock()
    var table = LeaseTable(run: "m")
    var catalog = ModelCatalog(photos: 12)
    var lastEvent = ""

    /// Connected workers by id: their current connection.
    var connections: [String: Data] = ["w1": Data("w1#1".utf8), "w2": Data("w2#1".utf8), "w3": Data("w3#1".utf8)]
    var reconnects = 1
    /// What each worker believes it holds (it answers every one of them sooner or later,
    /// even after the coordinator took it back): token → (job id, kinds).
    var worksOn: [String: [String: (jobID: String, kinds: [Kind])]] = [:]

    // The model of the table.
    struct Granted {
        var worker: String
        var tasks: [TaskKey]
        var running: Bool
        /// Answered, taken back, or handed back: out of the table.
        var out = false
        var releases = 0
        var claims = 0
        /// Dropped with its worker lost: a late answer is still recognised once.
        var departed = false
    }
    var granted: [String: Granted] = [:]

    // The commit path.
    var results: [ReportedResult] = []
    var releasedInBatches: [String: Int] = [:]
    var written: Set<String> = []
    var writing: (batch: CommitBatch, applied: Bool)?

    init(generator: SplitMix64) {
        self.generator = generator
    }

    mutating func pick<T>(_ items: [T]) -> T? {
        items.isEmpty ? nil : items[generator.int(in: 0...(items.count - 1))]
    }

    mutating func step() {
        switch generator.int(in: 0...99) {
        case 0..<30: grant()
        case 30..<55: answer()
        case 55..<60: answerAgain()
        case 60..<65: extend()
        case 65..<72:
            clock.advance(Double(generator.int(in: 1...40)) / 10)
            expire()
        case 72..<76: dropWorker()
        case 76..<79: reconnect()
        case 79..<83: withdraw()
        case 83..<93: flush()
        default: commitDone()
        }
    }

    // MARK: Events

    mutating func grant() {
        guard let worker = pick(connections.keys.sorted()), let peer = connections[worker],
            let photo = pick(Array(1...Int64(catalog.photos)))
        else { return }
        // A page as the catalog reads it: the photo's pending tasks of one tier, filtered
        // by the table.
        let tier = generator.int(in: 0...1)
        let kinds = (tier == 0 ? [Kind.hash, .metadata] : [.thumbnail])
            .filter { catalog.tasks[TaskKey(photoId: photo, kind: $0)]!.state == .pending }
        guard !kinds.isEmpty else { return }
        let job = PendingJob(
            photoId: photo,
            path: "/p/\(photo)",
            size: 1,
            mtimeNs: 1,
            kinds: kinds,
            updatedAt: kinds.map { catalog.tasks[TaskKey(photoId: photo, kind: $0)]!.updatedAt }
        )
        guard let paged = table.leavingOutUnwritten([job]).first else {
            lastEvent = "page of \(photo) left out"
            return
        }
        let seconds = Double(generator.int(in: 2...8))
        let (jobID, token) = table.grant(paged, to: peer, worker: worker, seconds: seconds, at: clock.now)
        granted[token] = Granted(
            worker: worker,
            tasks: paged.kinds.map { TaskKey(photoId: photo, kind: $0) },
            running: true
        )
        worksOn[worker, default: [:]][token] = (jobID, paged.kinds)
        lastEvent = "grant \(token) of \(photo) \(paged.kinds) to \(worker)"
    }

    /// A worker answers one of the jobs it works on (possibly long taken back).
    mutating func answer() {
        guard let worker = pick(worksOn.filter { !$0.value.isEmpty }.keys.sorted()),
            let token = pick(worksOn[worker]!.keys.sorted())
        else { return }
        let job = worksOn[worker]!.removeValue(forKey: token)!
        guard let peer = connections[worker] else {
            lastEvent = "\(worker) gone: its answer to \(token) is lost"
            return
        }
        answer(token: token, jobID: job.jobID, kinds: job.kinds, worker: worker, peer: peer)
    }

    mutating func answer(token: String, jobID: String, kinds: [Kind], worker: String, peer: Data) {
        let succeeded = kinds.filter { _ in generator.int(in: 0...3) > 0 }
        let entry = table.claim(jobID, token: token, from: peer, worker: worker) ?? table.departed(jobID, token: token)
        lastEvent = "\(worker) answers \(token): \(entry == nil ? "settled before" : "claimed")"
        guard let entry else { return }
        granted[token]!.claims += 1
        granted[token]!.out = true
        granted[token]!.running = false
        let folded = table.fold(token, succeeded: succeeded)
        for kind in entry.lease.kinds {
            let outcome: TaskOutcome =
                succeeded.contains(kind)
                ? .hash(md5: "m", sha256: "s")
                : .failure(errorClass: .unreadable, message: "gone", retryable: true)
            results.append(
                ReportedResult(
                    result: TaskResult(
                        photoId: entry.lease.photoId,
                        kind: kind,
                        leaseToken: token,
                        outcome: outcome,
                        recipe: "r"
                    ),
                    worker: worker,
                    startedAt: 0,
                    endedAt: 1,
                    pagedUpdatedAt: folded[kind]
                )
            )
        }
    }

    /// A re-send after a lost ACK (never claims again), or an answer to a job another
    /// worker holds (claims nothing).
    mutating func answerAgain() {
        guard let worker = pick(connections.keys.sorted()), let peer = connections[worker],
            let token = pick(
                granted.filter { $0.value.claims > 0 || (!$0.value.out && $0.value.worker != worker) }.keys.sorted()
            )
        else { return }
        lastEvent = "\(worker) answers \(token) again"
        let jobID = "m.\(token.dropFirst(2))"
        if table.claim(jobID, token: token, from: peer, worker: worker) != nil
            || (granted[token]!.claims > 0 && table.departed(jobID, token: token) != nil)
        {
            problems.append("\(worker) claimed \(token) again")
        }
    }

    mutating func extend() {
        guard let token = pick(granted.filter { !$0.value.out && $0.value.running }.keys.sorted()),
            let peer = connections[granted[token]!.worker],
            let entry = table.running("m.\(token.dropFirst(2))", token: token, heldBy: peer)
        else { return }
        guard case .running(let deadline) = entry.state else { return }
        table.extend(token, to: deadline + Double(generator.int(in: 1...5)), at: clock.now)
        lastEvent = "extend \(token)"
    }

    mutating func expire() {
        let expected = Set(
            table.entries.filter {
                if case .running(let deadline) = $0.value.state {
                    clock.monotonic > deadline && $0.value.holder != nil
                } else {
                    false
                }
            }.keys
        )
        let expired = table.expire(at: clock.now) { _ in "late" }
        for entry in expired {
            granted[entry.lease.token]!.running = false
            granted[entry.lease.token]!.releases += 1
        }
        lastEvent = "expire \(expired.map(\.lease.token).sorted())"
        if Set(expired.map(\.lease.token)) != expected {
            problems.append("expired \(expired.map(\.lease.token)), expected \(expected.sorted())")
        }
    }

    /// A worker lost (or it said DISCONNECT): its running leases come back, now.
    mutating func dropWorker() {
        guard let worker = pick(connections.keys.sorted()), let peer = connections[worker] else { return }
        let lost = generator.int(in: 0...1) == 0
        let running = granted.filter { $0.value.worker == worker && !$0.value.out && $0.value.running }.keys
        table.dropHolder(peer, reason: lost ? .workerLost : .shutdown, message: "gone")
        for (token, lease) in granted where lease.worker == worker && !lease.out {
            granted[token]!.out = true
            granted[token]!.departed = lost
            if lease.running { granted[token]!.releases += 1 }
            granted[token]!.running = false
        }
        connections[worker] = nil
        if !lost { worksOn[worker] = [:] }  // it stopped: it answers nothing any more
        lastEvent = "drop \(worker) (\(lost ? "lost" : "stopped")), running \(running.sorted())"
    }

    /// A worker comes back on a new connection (after a drop, or while its old one is
    /// still thought alive: its running leases move with it; its expired ones are let go,
    /// released already, their late answers still taken).
    mutating func reconnect() {
        guard let worker = pick(["w1", "w2", "w3"]) else { return }
        reconnects += 1
        let peer = Data("\(worker)#\(reconnects)".utf8)
        table.attach(worker: worker, to: peer)
        for (token, lease) in granted where lease.worker == worker && !lease.out && !lease.running {
            granted[token]!.out = true
            granted[token]!.departed = true
        }
        connections[worker] = peer
        lastEvent = "\(worker) reconnects"
    }

    /// A JOB the socket refused (right after its grant, or when its file was read).
    mutating func withdraw() {
        guard let token = pick(granted.filter { !$0.value.out && $0.value.running }.keys.sorted()) else { return }
        let worker = granted[token]!.worker
        guard let withdrawal = table.withdraw(token) else {
            problems.append("\(token) could not be withdrawn")
            return
        }
        granted[token]!.out = true
        granted[token]!.running = false
        if case .handedBack = withdrawal { granted[token]!.releases += 1 }
        worksOn[worker]?[token] = nil
        lastEvent = "withdraw \(token)"
    }

    mutating func flush() {
        guard writing == nil else { return }
        guard let writes = table.takeForCommit(at: clock.monotonic, keepingBack: 0.5, evenIfEmpty: !results.isEmpty)
        else { return }
        var batch = CommitBatch()
        batch.leases = writes.leases
        batch.results = results
        batch.releases = writes.releases
        results.removeAll()
        for release in batch.releases { releasedInBatches[release.lease.token, default: 0] += 1 }
        for lease in batch.leases {
            for kind in lease.kinds where !written.insert("\(lease.token) \(kind)").inserted {
                problems.append("\(lease.token) \(kind) written twice")
            }
        }
        for reported in batch.results
        where reported.pagedUpdatedAt != nil
            && batch.leases.contains(where: {
                $0.token == reported.result.leaseToken && $0.kinds.contains(reported.result.kind)
            })
        {
            problems.append("\(reported.result.leaseToken) \(reported.result.kind) folded and written")
        }
        // The committer may write it before the next page is read, or after.
        let now = generator.int(in: 0...1) == 0
        if now { catalog.apply(batch) }
        writing = (batch, now)
        lastEvent =
            "flush: \(batch.leases.count) leases, \(batch.results.count) results, \(batch.releases.count) releases"
    }

    mutating func commitDone() {
        guard let (batch, applied) = writing else { return }
        if !applied { catalog.apply(batch) }
        table.committed()
        writing = nil
        lastEvent = "committed"
    }

    // MARK: Checks

    var problems: [String] = []

    mutating func check() -> [String] {
        defer { problems.removeAll() }
        var found = problems
        // The table holds exactly what the model says is out, running as the model says.
        let modelOut = Set(granted.filter { !$0.value.out }.keys)
        if Set(table.entries.keys) != modelOut {
            found.append("table holds \(table.entries.keys.sorted()), model \(modelOut.sorted())")
        }
        for (token, entry) in table.entries where entry.isRunning != granted[token]?.running {
            found.append(
                "\(token) running: table \(entry.isRunning), model \(String(describing: granted[token]?.running))"
            )
        }
        // One running lease per task.
        var running: [TaskKey: String] = [:]
        for (token, entry) in table.entries where entry.isRunning {
            for kind in entry.lease.kinds {
                let key = TaskKey(photoId: entry.lease.photoId, kind: kind)
                if let other = running.updateValue(token, forKey: key) {
                    found.append("\(key) under \(other) and \(token)")
                }
            }
        }
        // Each connection's count of leases held.
        for (worker, peer) in connections {
            let held = table.entries.values.filter { $0.holder == peer }.count
            if held != table.heldCount(by: peer) {
                found.append("\(worker) holds \(held), counted \(table.heldCount(by: peer))")
            }
        }
        for (token, lease) in granted {
            if lease.claims > 1 { found.append("\(token) claimed \(lease.claims) times") }
            if lease.releases > 1 { found.append("\(token) released \(lease.releases) times") }
        }
        return found
    }

    /// Every worker goes, every commit lands: nothing may stay leased in the catalog.
    mutating func finish() -> [String] {
        for (worker, peer) in connections {
            table.dropHolder(peer, reason: .shutdown, message: "end")
            for (token, lease) in granted where lease.worker == worker && !lease.out {
                granted[token]!.out = true
                if lease.running { granted[token]!.releases += 1 }
            }
        }
        table.handBackAll(message: "end")
        clock.advance(1)
        for _ in 0..<3 {
            commitDone()
            flush()
            commitDone()
        }
        var found = check()
        for (token, lease) in granted where releasedInBatches[token, default: 0] != lease.releases {
            found.append("\(token) released \(releasedInBatches[token, default: 0]) times, expected \(lease.releases)")
        }
        let leased = catalog.tasks.filter { $0.value.state == .leased }
        if !leased.isEmpty {
            found.append("left leased: \(leased.map { "\($0.key) under \($0.value.token ?? "?")" }.sorted())")
        }
        return found
    }
}

/// The catalog's tasks as `Catalog.commit` changes them.
private struct ModelCatalog {
    struct Task {
        var state = TaskState.pending
        var token: String?
        var updatedAt: Double = 1
    }
    let photos: Int
    var tasks: [TaskKey: Task] = [:]
    var clock: Double = 1

    init(photos: Int) {
        self.photos = photos
        for photo in 1...Int64(photos) {
            for kind in [Kind.hash, .metadata, .thumbnail] { tasks[TaskKey(photoId: photo, kind: kind)] = Task() }
        }
    }

    mutating func apply(_ batch: CommitBatch) {
        clock += 1
        for lease in batch.leases {
            for kind in lease.kinds {
                let key = TaskKey(photoId: lease.photoId, kind: kind)
                guard tasks[key]!.state == .pending else { continue }
                tasks[key] = Task(state: .leased, token: lease.token, updatedAt: clock)
            }
        }
        for reported in batch.results {
            let key = TaskKey(photoId: reported.result.photoId, kind: reported.result.kind)
            let task = tasks[key]!
            let holds =
                if let paged = reported.pagedUpdatedAt { task.state == .pending && task.updatedAt == paged } else {
                    task.state == .leased && task.token == reported.result.leaseToken
                }
            guard holds else { continue }
            tasks[key] = Task(state: reported.isSuccess ? .done : .pending, token: nil, updatedAt: clock)
        }
        for release in batch.releases {
            for kind in release.lease.kinds {
                let key = TaskKey(photoId: release.lease.photoId, kind: kind)
                guard tasks[key]!.state == .leased && tasks[key]!.token == release.lease.token else { continue }
                tasks[key] = Task(state: .pending, token: nil, updatedAt: clock)
            }
        }
        // Done tasks come back now and then (a re-scan, `reprocess`): the work goes on.
        for (key, task) in tasks where task.state == .done && Int(clock) % 5 == 0 {
            tasks[key] = Task(state: .pending, token: nil, updatedAt: clock)
        }
    }
}
