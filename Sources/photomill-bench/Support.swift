import Catalog
import Foundation

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

/// CPU time of the children waited for so far.
func childrenCPUSeconds() -> Double {
    cpuSeconds(__rusage_who_t(RUSAGE_CHILDREN.rawValue))
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
