import Catalog
import Foundation
import PhotomillCore

/// Reads the files of JOBs for workers fed bytes, on threads of its own, so that the
/// coordinator's loop — and with it heartbeats, results and the catalog's commits — never
/// waits for a disk (PROTOCOL.md, "File transfer"; docs/benchmarks.md, "Bytes at line
/// rate"). Reads run `threads` at a time, in the order they were asked for; the files read
/// and not yet handed to libzmq hold at most `budget` bytes (a file larger than the budget
/// is read alone), and credits bound what each worker is sent. libzmq sends the frames
/// without copying them and frees them once written.
final class FileReaders: @unchecked Sendable {
    // @unchecked: `waiting`, `finished`, `reserved` and `stopping` are guarded by
    // `condition`; `wake` is thread-safe; `threads` is set once, in `init`.
    struct Request {
        let order: JobOrder
        let peer: Data
    }

    struct Read {
        let request: Request
        let payload: Result<(frames: [Data], sidecar: BlobTransfer.SidecarPayload), BlobTransfer.Failure>
        /// What it holds of the budget, until `release`d.
        let reserved: Int64
    }

    /// The loop polls its descriptor: readable when reads are done.
    let wake: WakePipe
    let budget: Int64
    private let condition = NSCondition()
    private var waiting: [Request] = []
    private var finished: [Read] = []
    private var reserved: Int64 = 0
    private var stopping = false
    private var threads: [OwnedThread<Void>] = []

    init(threads count: Int = 2, budget: Int64 = 1 << 30) throws(WakePipe.Failure) {
        wake = try WakePipe()
        self.budget = budget
        threads = (0..<count).map { index in OwnedThread(name: "pm-reader-\(index)") { [self] in serve() } }
    }

    /// Asks for the file of `request` to be read (from the loop).
    func submit(_ request: Request) {
        condition.withLock {
            waiting.append(request)
            condition.broadcast()
        }
    }

    /// The reads done since the last call (from the loop, when `wake` is readable).
    func collect() -> [Read] {
        wake.drain()
        return condition.withLock {
            defer { finished.removeAll(keepingCapacity: true) }
            return finished
        }
    }

    /// A read's bytes were handed to libzmq (or dropped): its share of the budget is free.
    func release(_ read: Read) {
        guard read.reserved > 0 else { return }
        condition.withLock {
            reserved -= read.reserved
            condition.broadcast()
        }
    }

    /// Files asked for and not yet handed back, and the bytes they hold.
    var backlog: (requests: Int, bytes: Int64) { condition.withLock { (waiting.count, reserved) } }

    /// Ends the threads once their reads are done; reads not started are dropped.
    func stop() {
        condition.withLock {
            stopping = true
            waiting.removeAll()
            condition.broadcast()
        }
        for thread in threads { thread.join() }
    }

    private func serve() {
        while true {
            let next: (Request, Int64)? = condition.withLock {
                while !stopping {
                    if let first = waiting.first {
                        let size = first.order.job.size
                        // The oldest request first, once its bytes fit (or nothing else is held).
                        if reserved == 0 || reserved + size <= budget {
                            waiting.removeFirst()
                            reserved += size
                            return (first, size)
                        }
                    }
                    condition.wait()
                }
                return nil
            }
            guard let (request, size) = next else { return }
            let payload = BlobTransfer.payload(of: request.order.job)
            var held = size
            if case .failure = payload {
                held = 0
                condition.withLock { reserved -= size }
            }
            condition.withLock {
                finished.append(Read(request: request, payload: payload, reserved: held))
                condition.broadcast()
            }
            wake.signal()
        }
    }
}
