import Catalog
import Exports
import Foundation
import Logging

/// Writes exports on a thread of its own as results are committed, so file I/O never
/// delays the coordinator's loop.
final class ExportQueue: @unchecked Sendable {
    // @unchecked: `pending`, `closed` and `failures` are guarded by `condition`.
    private let exporter: Exporter
    private let logger: Logger
    private let condition = NSCondition()
    private var pending: Set<Int64> = []
    private var closed = false
    private var thread: Thread?
    private(set) var failures = 0

    init(exporter: Exporter, logger: Logger) {
        self.exporter = exporter
        self.logger = logger
    }

    func start() {
        let thread = Thread { [self] in loop() }
        thread.name = "photomill-exports"
        thread.start()
        self.thread = thread
    }

    func enqueue(_ photoIds: [Int64]) {
        condition.lock()
        pending.formUnion(photoIds)
        condition.signal()
        condition.unlock()
    }

    /// Exports what is still queued, writes the manifest, and stops the thread.
    func finish() {
        condition.lock()
        closed = true
        condition.signal()
        condition.unlock()
        while let thread, !thread.isFinished { usleep(2000) }
        do {
            try exporter.writeManifest()
        } catch {
            logger.error("cannot write the export manifest: \(error)")
            failures += 1
        }
    }

    private func loop() {
        // What an earlier coordinator committed but was killed before exporting.
        do {
            try exporter.exportMissing()
        } catch {
            condition.withLock { failures += 1 }
            logger.error("export failed: \(error)")
        }
        while true {
            condition.lock()
            while pending.isEmpty && !closed { condition.wait() }
            let ids = Array(pending)
            pending.removeAll()
            let done = closed && ids.isEmpty
            condition.unlock()
            if done { return }
            do {
                _ = try exporter.export(photoIds: ids)
            } catch {
                condition.lock()
                failures += 1
                condition.unlock()
                logger.error("export failed: \(error)")
            }
        }
    }
}
