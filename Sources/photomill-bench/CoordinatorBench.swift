import Catalog
import Coordinator
import Foundation
import Logging
import ZeroMQ

/// The coordinator alone: a catalog of `tasks` pending hash tasks, an in-process
/// coordinator, and echo workers that answer every job at once. The rate is the number of
/// results the catalog committed (and ACKed) per second, from the first JOB to the last ACK.
struct CoordinatorBench {
    var tasks: Int
    var workers: Int
    var slots: Int
    var endpoint: String

    struct Figures {
        var committed: Int
        var seconds: Double
        var coordinatorCPUSeconds: Double
        /// CPU of the whole process (coordinator, libzmq's I/O threads, echo workers) over the run.
        var processCPUSeconds: Double
        var perSecond: Double { Double(committed) / seconds }
    }

    func run(in directory: URL) throws -> Figures {
        let catalog = try Catalog(path: directory.appendingPathComponent("trivial.sqlite").path)
        var queued = 0
        while queued < tasks {
            let files = (queued..<min(tasks, queued + 5_000)).map {
                ScannedFile(path: "/bench/\($0).jpg", size: 0, mtimeNs: 0)
            }
            _ = try catalog.record(files, kinds: [.hash], now: Date().timeIntervalSince1970)
            queued += files.count
        }

        var configuration = CoordinatorConfiguration(bind: [endpoint], roots: [], kinds: [.hash], isCandidate: { _ in true })
        configuration.exitWhenDone = true
        var logger = Logger(label: "bench.coordinator")
        logger.logLevel = .error
        let service = CoordinatorService(configuration: configuration, catalog: catalog, logger: logger)
        let bound = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var endpoints: [String] = []
        nonisolated(unsafe) var failure: (any Error)?
        nonisolated(unsafe) var cpu = 0.0
        let thread = Thread {
            let before = threadCPUSeconds()
            do {
                _ = try service.run { endpoints = $0; bound.signal() }
            } catch {
                failure = error
                bound.signal()
            }
            cpu = threadCPUSeconds() - before
            stopped.signal()
        }
        thread.start()
        bound.wait()
        if let failure { throw failure }

        let processBefore = processCPUSeconds()
        let context = try ZMQContext()
        let echoes = (0..<workers).map { EchoWorker(endpoint: endpoints[0], id: "echo-\($0)", slots: slots) }
        for echo in echoes { echo.start(context: context) }
        stopped.wait()
        if let failure { throw failure }
        for echo in echoes { try echo.join() }
        let processCPU = processCPUSeconds() - processBefore

        let done = try catalog.status().count(.hash, .done)
        guard done == tasks else { throw BenchError("the catalog has \(done) of \(tasks) hash tasks done") }
        let first = echoes.compactMap(\.firstJob).min() ?? 0
        let last = echoes.compactMap(\.lastAck).max() ?? 0
        return Figures(committed: echoes.reduce(0) { $0 + $1.committed }, seconds: last - first, coordinatorCPUSeconds: cpu,
                       processCPUSeconds: processCPU)
    }
}

/// CPU time (user + system) of the calling thread.
func threadCPUSeconds() -> Double {
    cpuSeconds(__rusage_who_t(1))   // RUSAGE_THREAD, which Glibc does not export to Swift
}

/// CPU time (user + system) of the whole process.
func processCPUSeconds() -> Double {
    cpuSeconds(__rusage_who_t(RUSAGE_SELF.rawValue))
}

func cpuSeconds(_ who: __rusage_who_t) -> Double {
    var usage = rusage()
    getrusage(who, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
