import Foundation
import PhotomillCore
import MillProtocol
import SwiftProtobuf
import ZeroMQ

/// What is left of a worker when the work costs nothing: it answers every JOB at once
/// with the hashes of an empty file, so that a benchmark measures the coordinator (and
/// the wire) alone. It speaks the real protocol over a real socket: READY with its
/// slots, RESULT per JOB, HEARTBEAT while idle, and it counts the ACKs.
final class EchoWorker: @unchecked Sendable {
    // @unchecked: every field is written by the worker's thread only, and read by the
    // benchmark after `join()`.
    let endpoint: String
    let id: String
    let slots: Int
    private(set) var committed = 0
    private(set) var firstJob: MonotonicInstant?
    private(set) var lastAck: MonotonicInstant?
    private var thread: OwnedThread<(any Error)?>?
    /// Told each JOB's path as it arrives (set before `start`; the steering bench watches).
    var onJob: (@Sendable (String) -> Void)?

    init(endpoint: String, id: String, slots: Int) {
        self.endpoint = endpoint
        self.id = id
        self.slots = slots
    }

    func start(context: ZMQContext) {
        thread = OwnedThread(name: "pm-echo") { [self] in
            do {
                try serve(context)
                return nil
            } catch {
                FileHandle.standardError.write(Data("\(id): \(error)\n".utf8))
                return error
            }
        }
    }

    /// Waits for the coordinator's DISCONNECT (it sends one when every task is done).
    func join() throws {
        if let failure = thread?.join() { throw failure }
    }

    private func serve(_ context: ZMQContext) throws {
        let socket = try ZMQSocket(context: context, type: .dealer)
        defer { socket.close() }
        try socket.set(.linger, to: 0)
        try socket.connect(endpoint)
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
        _ = try socket.send(MillCodec.encode(.ready(ready)))
        var poller = Poller()
        _ = poller.register(socket)
        var lastSent = MonotonicInstant.now()
        while true {
            if try poller.poll(timeoutMilliseconds: 250).isEmpty {
                _ = try socket.send(MillCodec.encode(.heartbeat()))
                lastSent = MonotonicInstant.now()
                continue
            }
            while let frames = try socket.receive(dontWait: true) {
                // A JOB is parsed, not validated (the coordinator built it): the echo's CPU
                // is the benchmark's overhead on the cores the coordinator needs.
                if frames.count == 3, frames[1].first == Command.job.rawValue {
                    let job = try Photomill_V1_Job(serializedBytes: frames[2])
                    if firstJob == nil { firstJob = MonotonicInstant.now() }
                    onJob?(job.path)
                    _ = try socket.send(MillCodec.encode(.result(Self.answer(job), blobs: [])))
                    continue
                }
                switch try MillCodec.decode(frames) {
                case .ack(let ack):
                    committed += ack.committed.count
                    lastAck = MonotonicInstant.now()
                case .disconnect:
                    return
                default:
                    break
                }
            }
            let now = MonotonicInstant.now()
            if now - lastSent >= 1 {
                _ = try socket.send(MillCodec.encode(.heartbeat()))
                lastSent = now
            }
        }
    }

    private static func answer(_ job: Photomill_V1_Job) -> Photomill_V1_Result {
        var result = Photomill_V1_Result()
        result.jobID = job.jobID
        result.leaseToken = job.leaseToken
        result.results = job.kinds.map { kind in
            var entry = Photomill_V1_KindResult()
            entry.kind = kind
            entry.recipe = "echo"
            // A worker's own timing, as a real one reports it: /metrics records it per result.
            entry.processingUs = 5
            var hashes = Photomill_V1_Hashes()
            hashes.md5 = "d41d8cd98f00b204e9800998ecf8427e"
            hashes.sha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
            hashes.fileSize = job.fileSize
            entry.hashes = hashes
            return entry
        }
        return result
    }
}
