import Catalog
import Foundation
import PhotomillCore

/// A new catalog of `tasks` pending hash tasks on made-up paths under /bench (nothing
/// reads them: the benchmarks that use it answer without touching files).
func pendingHashCatalog(tasks: Int, at url: URL) throws -> Catalog {
    let catalog = try Catalog(path: url.path)
    var queued = 0
    while queued < tasks {
        let files = (queued..<min(tasks, queued + 5_000)).map { ScannedFile(path: "/bench/\($0).jpg", size: 0, mtimeNs: 0) }
        _ = try catalog.record(files, kinds: [.hash], now: Date().timeIntervalSince1970)
        queued += files.count
    }
    return catalog
}

/// CPU time (user + system) of the calling thread.
func threadCPUSeconds() -> Double {
    cpuSeconds(__rusage_who_t(1))   // RUSAGE_THREAD, which Glibc does not export to Swift
}

/// CPU time (user + system) of the whole process.
func processCPUSeconds() -> Double {
    cpuSeconds(__rusage_who_t(RUSAGE_SELF.rawValue))
}

private func cpuSeconds(_ who: __rusage_who_t) -> Double {
    var usage = rusage()
    getrusage(who, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// CPU seconds (user + system) of each thread of this process by thread name, over an
/// interval. Threads may end before it does (the coordinator's do), so /proc is read
/// every 50 ms and a thread's last reading counts: it may miss up to 50 ms per thread.
final class ThreadCPUSampler: @unchecked Sendable {
    // @unchecked: the readings are guarded by `lock`.
    private let lock = NSLock()
    private var first: [Int: Double] = [:]
    private var last: [Int: (name: String, seconds: Double)] = [:]
    private var sampling: Every50ms?

    func start() {
        first = Self.read().mapValues(\.seconds)
        sampling = Every50ms { [self] in record(Self.read()) }
    }

    func stop() -> [String: Double] {
        sampling?.stop()
        record(Self.read())
        return lock.withLock {
            last.reduce(into: [:]) { sums, entry in
                sums[entry.value.name, default: 0] += entry.value.seconds - (first[entry.key] ?? 0)
            }
        }
    }

    private func record(_ reading: [Int: (name: String, seconds: Double)]) {
        lock.withLock { last.merge(reading) { $1 } }
    }

    private static func read() -> [Int: (name: String, seconds: Double)] {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var readings: [Int: (name: String, seconds: Double)] = [:]
        for task in tasks {
            guard let tid = Int(task),
                  let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8),
                  let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After "pid (comm) ": state is field 3, utime 14, stime 15.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            readings[tid] = (name.trimmingCharacters(in: .whitespacesAndNewlines), (user + system) / ticks)
        }
        return readings
    }
}

/// Names the calling thread (at most 15 bytes) for `ThreadCPUSampler`.
func nameThread(_ name: String) {
    // Not Thread.name: Foundation applies it only once the creator has recorded the
    // thread's handle, which races with the thread's first steps.
    try? String(name.prefix(15)).write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
}

/// CPU time of the children waited for so far.
func childrenCPUSeconds() -> Double {
    cpuSeconds(__rusage_who_t(RUSAGE_CHILDREN.rawValue))
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
