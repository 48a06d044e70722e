import Catalog
import Foundation

/// The live progress of `photomill run`, read from the catalog (a WAL reader, so it never
/// slows the coordinator): one line redrawn in place on a terminal, a plain line every
/// five seconds otherwise.
final class ProgressReporter: @unchecked Sendable {
    // @unchecked: `running` is guarded by `lock`; the rest is used by the reporter thread only.
    private let catalog: Catalog
    private let lock = NSCondition()
    private var running = true
    private var thread: Thread?
    private let isTerminal = isatty(STDERR_FILENO) != 0

    init(catalog: Catalog) { self.catalog = catalog }

    func start() {
        let thread = Thread { [self] in
            let started = Date()
            var lastLine = Date.distantPast
            var firstFinished: (Date, Int)?
            while lock.withLock({ running }) {
                // Waits on the condition, so that `stop()` ends the wait at once.
                lock.lock()
                if running { _ = lock.wait(until: Date().addingTimeInterval(isTerminal ? 0.5 : 1)) }
                lock.unlock()
                guard Date().timeIntervalSince(lastLine) >= (isTerminal ? 0.5 : 5),
                      let status = try? catalog.status() else { continue }
                lastLine = Date()
                let finished = status.total(.done) + status.total(.failed)
                if firstFinished == nil { firstFinished = (Date(), finished) }
                let line = Self.line(status, elapsed: Date().timeIntervalSince(started), since: firstFinished!)
                FileHandle.standardError.write(Data((isTerminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
            }
            if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        }
        thread.name = "photomill-progress"
        thread.start()
        self.thread = thread
    }

    func stop() {
        lock.lock()
        running = false
        lock.broadcast()
        lock.unlock()
        while let thread, !thread.isFinished { usleep(10_000) }
    }

    static func line(_ status: CatalogStatus, elapsed: Double, since first: (Date, Int)) -> String {
        let finished = status.total(.done) + status.total(.failed)
        let all = finished + status.total(.pending) + status.total(.leased)
        let kinds = TaskKind.allCases.filter { status.counts[$0] != nil }.map { kind in
            "\(kind.rawValue) \(status.count(kind, .done) + status.count(kind, .failed))/\(status.counts[kind]!.values.reduce(0, +))"
        }
        let interval = Date().timeIntervalSince(first.0)
        let rate = interval > 1 ? Double(finished - first.1) / interval : 0
        var parts = ["\(status.photos) photos"] + kinds
        if status.total(.failed) > 0 { parts.append("\(status.total(.failed)) failed") }
        parts.append(String(format: "%.0f tasks/s", rate))
        if rate > 0 && all > finished { parts.append("ETA \(duration(Double(all - finished) / rate))") }
        parts.append(duration(elapsed))
        return parts.joined(separator: " · ")
    }
}

func duration(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    return s >= 3600 ? String(format: "%dh%02dm", s / 3600, s % 3600 / 60)
        : s >= 60 ? String(format: "%dm%02ds", s / 60, s % 60) : "\(s)s"
}
