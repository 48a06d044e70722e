import Catalog
import Foundation
import Logging
import PhotomillCore
import ServiceLifecycle

/// The exports of a running coordinator, as a `Service`: photos whose results were just
/// committed (`enqueue`) are written on a thread of its own, so file I/O never delays the
/// coordinator's loop. It first writes what an earlier, killed coordinator committed but
/// never exported; at graceful shutdown it exports what is still queued and writes the
/// manifest.
public final class ExportService: Service, @unchecked Sendable {
    // @unchecked: `pending`, `closed` and `_failures` are guarded by `condition`.
    private let exporter: Exporter
    private let logger: Logger
    private let condition = NSCondition()
    private var pending: Set<Int64> = []
    private var closed = false
    /// When the first change the manifest does not show yet came, and the last.
    private var manifestDue: MonotonicInstant?
    private var lastChange = MonotonicInstant.distantPast
    private var _failures = 0

    public init(exporter: Exporter, logger: Logger) {
        self.exporter = exporter
        self.logger = logger
    }

    /// Export batches (and the manifest) that could not be written; the catalog keeps
    /// every result, and `photomill export` writes them again.
    public var failures: Int { condition.withLock { _failures } }

    /// Queues photos for export (and the manifest); callable from any thread, before or
    /// while the service runs.
    public func enqueue(_ photoIds: [Int64]) {
        condition.withLock {
            pending.formUnion(photoIds)
            lastChange = MonotonicInstant.now()
            if manifestDue == nil { manifestDue = lastChange }
            condition.signal()
        }
    }

    /// The manifest is written again while the coordinator runs, once changes pause for
    /// `manifestQuiet` seconds, or `manifestLatest` seconds after the first one at the
    /// latest: it follows the library (photos new, gone, moved) without being rewritten
    /// for each commit.
    let manifestQuiet = 2.0, manifestLatest = 30.0

    public func run() async throws {
        let writer = OwnedThread(name: "pm-exports") { [self] in write() }
        await withTaskCancellationOrGracefulShutdownHandler {
            await writer.value
        } onCancelOrGracefulShutdown: { [self] in
            condition.withLock {
                closed = true
                condition.signal()
            }
        }
    }

    private func write() {
        // What an earlier coordinator committed but was killed before exporting.
        attempt("export failed") { _ = try exporter.exportMissing() }
        while true {
            let (ids, done, manifest): ([Int64], Bool, Bool) = condition.withLock {
                while pending.isEmpty && !closed {
                    guard let due = manifestDue else { condition.wait(); continue }
                    let now = MonotonicInstant.now()
                    let at = min(lastChange + manifestQuiet, due + manifestLatest)
                    if now >= at {
                        manifestDue = nil
                        return ([], false, true)
                    }
                    _ = condition.wait(until: Date(timeIntervalSinceNow: at - now))
                }
                defer { pending.removeAll() }
                return (Array(pending), closed && pending.isEmpty, false)
            }
            if done { break }
            if manifest {
                attempt("cannot write the export manifest") { try exporter.writeManifest() }
                continue
            }
            attempt("export failed") { _ = try exporter.export(photoIds: ids) }
        }
        attempt("cannot write the export manifest") { try exporter.writeManifest() }
    }

    private func attempt(_ what: Logger.Message, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            condition.withLock { _failures += 1 }
            logger.error(what, metadata: ["exports": "\(exporter.root.path)", "error": "\(error)"])
        }
    }
}
