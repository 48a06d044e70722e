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
import MillProtocol
import PhotomillCore
import ZeroMQ

/// What is left of workers when the work costs nothing: one thread serving one or many
/// DEALER sockets, each a worker of its own that answers every job at once with the
/// hashes of an empty file, so that a benchmark measures the coordinator (and the wire)
/// alone. Each speaks the real protocol over a real socket: READY with its slots, a RESULT
/// for each JOB and one RESULTS for each JOBS (so it serves a coordinator of revision 2 as
/// well), HEARTBEAT after a second of its own silence, and it counts its jobs and ACKs.
/// A worker can be made to fall silent (`silence`), as a frozen host would.
final class EchoWorker: @unchecked Sendable {
    // @unchecked: the counts and times are written by the thread only, and read by the
    // benchmark after `join()`; what it reads while the thread runs (`silenced`, `heard`,
    // `committedTotal`, `lastSentBySilenced`) is guarded by `lock`.
    let endpoint: String
    let ids: [String]
    let slots: Int
    private(set) var firstJob: MonotonicInstant?
    private(set) var lastAck: MonotonicInstant?
    /// Per worker, in the order of `ids`: jobs received, results ACKed as committed.
    private(set) var jobs: [Int]
    private(set) var committed: [Int]
    private let lock = NSLock()
    private var silenced: Set<Int> = []
    private var committedTotal = 0
    private var heard: Set<Int> = []
    private var lastSentBySilenced: [Int: MonotonicInstant] = [:]
    private var thread: OwnedThread<(any Error)?>?
    /// Told each JOB's path as it arrives (set before `start`; the steering bench watches).
    var onJob: (@Sendable (String) -> Void)?

    init(endpoint: String, ids: [String], slots: Int) {
        self.endpoint = endpoint
        self.ids = ids
        self.slots = slots
        jobs = Array(repeating: 0, count: ids.count)
        committed = Array(repeating: 0, count: ids.count)
    }

    convenience init(endpoint: String, id: String, slots: Int) {
        self.init(endpoint: endpoint, ids: [id], slots: slots)
    }

    var totalCommitted: Int { committed.reduce(0, +) }

    /// The same, while the thread runs.
    var totalCommittedSoFar: Int { lock.withLock { committedTotal } }

    /// Workers that have heard from the coordinator (it answers READY at once).
    var heardCount: Int { lock.withLock { heard.count } }

    /// From now on worker `index` sends nothing (its socket stays open); returns when it
    /// last sent something, once the thread has seen the request.
    func silence(_ index: Int) -> MonotonicInstant {
        lock.withLock { _ = silenced.insert(index) }
        while true {
            if let last = lock.withLock({ lastSentBySilenced[index] }) { return last }
            usleep(1_000)
        }
    }

    func start(context: ZMQContext) {
        thread = OwnedThread(name: "pm-echo") { [self] in
            do {
                try serve(context)
                return nil
            } catch {
                FileHandle.standardError.write(Data("\(ids.first ?? "echo"): \(error)\n".utf8))
                return error
            }
        }
    }

    /// Waits for every worker's DISCONNECT from the coordinator (it sends one when every
    /// task is done under `photomill run`'s mode, or when it stops).
    func join() throws {
        if let failure = thread?.join() { throw failure }
    }

    private func serve(_ context: ZMQContext) throws {
        let sockets = try ids.map { id -> ZMQSocket in
            let socket = try ZMQSocket(context: context, type: .dealer)
            try socket.set(.linger, to: 0)
            try socket.set(.routingId, to: Data((id + "#1").utf8))
            try socket.connect(endpoint)
            return socket
        }
        defer { for socket in sockets { socket.close() } }
        let readiness = try Readiness(sockets)
        var lastSent = [MonotonicInstant](repeating: .now(), count: ids.count)
        var open = Set(ids.indices)
        var silent: Set<Int> = []
        for (index, socket) in sockets.enumerated() {
            _ = try socket.send(MillCodec.encode(.ready(ready(ids[index]))))
            // Spread the heartbeats over the second, as independent hosts would be.
            lastSent[index] = .now() - Double(index % 100) / 100
        }
        // Everything waiting on one socket, answered; it also catches what a send on the
        // socket made libzmq take in without signalling its descriptor again.
        func drain(_ index: Int) throws {
            if !silent.contains(index) { lock.withLock { _ = heard.insert(index) } }
            while let frames = try sockets[index].receive(dontWait: true) {
                if frames.count == 3, frames[1].first == Command.job.rawValue {
                    try answer([answer(Array(frames[2]))], batch: false, on: sockets[index], index)
                    lastSent[index] = .now()
                    continue
                }
                if frames.count == 3, frames[1].first == Command.jobs.rawValue {
                    let jobs = Self.fields(Array(frames[2]))[1] ?? []
                    try answer(jobs.map { answer(Array($0)) }, batch: true, on: sockets[index], index)
                    lastSent[index] = .now()
                    continue
                }
                switch try MillCodec.decode(frames) {
                case .ack(let ack):
                    committed[index] += ack.committed.count
                    lock.withLock { committedTotal += ack.committed.count }
                    lastAck = .now()
                case .disconnect:
                    open.remove(index)
                default:
                    break
                }
            }
        }
        var lastSweep = MonotonicInstant.now()
        while !open.isEmpty {
            let ready = try readiness.wait(milliseconds: 50)
            let newlySilent = lock.withLock { silenced.subtracting(silent) }
            for index in newlySilent {
                silent.insert(index)
                open.remove(index)
                lock.withLock { lastSentBySilenced[index] = lastSent[index] }
            }
            let now = MonotonicInstant.now()
            // Now and then every socket, in case a signal was missed.
            let sweep = now - lastSweep >= 0.1
            if sweep { lastSweep = now }
            for index in (sweep ? Array(open) : ready) where open.contains(index) { try drain(index) }
            for index in open where !silent.contains(index) && now - lastSent[index] >= 1 {
                _ = try sockets[index].send(MillCodec.encode(.heartbeat()))
                lastSent[index] = now
                try drain(index)
            }
        }
    }

    /// RESULT bodies, sent as one RESULT or as one RESULTS (whose `results` entries they are).
    private func answer(_ results: [[UInt8]], batch: Bool, on socket: ZMQSocket, _ index: Int) throws {
        if firstJob == nil { firstJob = .now() }
        jobs[index] += results.count
        guard batch else {
            _ = try socket.send([MillWire.signature, Data([Command.result.rawValue]), Data(results[0])])
            return
        }
        var body: [UInt8] = []
        body.reserveCapacity(results.reduce(0) { $0 + $1.count + 3 })
        for result in results { Self.append(field: 1, result, to: &body) }
        _ = try socket.send([MillWire.signature, Data([Command.results.rawValue]), Data(body)])
    }

    private func ready(_ id: String) -> Photomill_V1_Ready {
        var ready = Photomill_V1_Ready()
        ready.workerID = id
        ready.host = "bench"
        ready.softwareVersion = "bench"
        ready.protocolVersion = MillWire.protocolVersion
        ready.slots = UInt32(slots)
        ready.kinds = [.hash]
        // It "reads" the benchmark's made-up paths itself: no file travels as bytes.
        ready.pathRoots = ["/bench"]
        ready.heartbeatIntervalMs = 1000
        return ready
    }

    // The echo reads the JOB's job id, lease token and kinds from its encoding and writes
    // the RESULT's by hand, without SwiftProtobuf and without validating anything (the
    // coordinator built the JOBs and validates the RESULTs): its CPU is the benchmark's
    // overhead on the cores it measures.

    /// A RESULT body answering the JOB encoded in `job`: each kind's hashes of an empty file.
    private func answer(_ job: [UInt8]) -> [UInt8] {
        let fields = Self.fields(job)
        if let onJob { onJob(String(decoding: fields[3]?.first ?? [], as: UTF8.self)) }  // path
        var body: [UInt8] = []
        body.reserveCapacity(64 + 128 * (fields[6]?.count ?? 1))
        Self.append(field: 1, Array(fields[1]?.first ?? []), to: &body)  // job_id
        Self.append(field: 2, Array(fields[7]?.first ?? []), to: &body)  // lease_token
        for packed in fields[6] ?? [] {  // kinds, packed
            for kind in packed { Self.append(field: 3, Self.kindResult(kind), to: &body) }
        }
        return body
    }

    /// KindResult {kind, recipe "echo", hashes {md5, sha256}, processing_us 5}: a worker's
    /// own timing, as a real one reports it (/metrics records it per result).
    private static func kindResult(_ kind: UInt8) -> [UInt8] {
        var entry: [UInt8] = [0x08, kind]
        append(field: 2, Array("echo".utf8), to: &entry)
        var hashes: [UInt8] = []
        append(field: 1, Array("d41d8cd98f00b204e9800998ecf8427e".utf8), to: &hashes)
        append(field: 2, Array("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855".utf8), to: &hashes)
        append(field: 3, hashes, to: &entry)
        entry += [15 << 3, 5]  // processing_us, a varint
        return entry
    }

    /// Appends a length-delimited field (wire type 2) of fewer than 16,384 bytes.
    private static func append(field: UInt8, _ bytes: [UInt8], to body: inout [UInt8]) {
        body.append(field << 3 | 2)
        if bytes.count < 0x80 {
            body.append(UInt8(bytes.count))
        } else {
            body += [UInt8(bytes.count & 0x7F) | 0x80, UInt8(bytes.count >> 7)]
        }
        body += bytes
    }

    /// The length-delimited fields of a protobuf encoding, by field number, in order;
    /// varint fields are skipped.
    private static func fields(_ bytes: [UInt8]) -> [UInt64: [ArraySlice<UInt8>]] {
        var found: [UInt64: [ArraySlice<UInt8>]] = [:]
        var index = 0
        func varint() -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            return value
        }
        while index < bytes.count {
            let key = varint()
            switch key & 7 {
            case 0: _ = varint()
            case 2:
                let length = Int(varint())
                let end = min(bytes.count, index + length)
                found[key >> 3, default: []].append(bytes[index..<end])
                index = end
            default: return found
            }
        }
        return found
    }
}

/// Which of many sockets have something to read, from poll(2) over their libzmq
/// descriptors (`ZMQSocket.fileDescriptor`, readable when the socket's state may have
/// changed): `zmq_poll` asks every socket for its events on every call, which with 500
/// sockets a thread made the simulated workers, not the coordinator, what a benchmark of a
/// thousand workers measured.
private final class Readiness {
    private var descriptors: [pollfd]

    init(_ sockets: [ZMQSocket]) throws {
        descriptors = try sockets.map { pollfd(fd: try $0.fileDescriptor, events: Int16(POLLIN), revents: 0) }
    }

    /// Indices of the sockets whose descriptor is readable within `milliseconds`.
    func wait(milliseconds: Int32) throws -> [Int] {
        let count = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        guard count >= 0 else {
            if errno == EINTR { return [] }
            throw BenchError("poll: \(String(cString: strerror(errno)))")
        }
        guard count > 0 else { return [] }
        return descriptors.indices.filter { descriptors[$0].revents != 0 }
    }
}
