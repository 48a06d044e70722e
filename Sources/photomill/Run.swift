import ArgumentParser
import Catalog
import Coordinator
import Exports
import Foundation
import PhotomillCore
import Logging

extension Photomill {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Process photo folders with a coordinator and local worker processes.",
            discussion: """
                Scans the folders into the catalog, starts WORKERS worker processes that talk \
                to the coordinator over ZeroMQ (ipc), shows progress, and exits when every task \
                is done or failed: 0 when all are done, 1 when some failed (see `photomill \
                status`). A re-run over an unchanged tree does no work.
                """)

        @Option(help: "Local worker processes (default: one per core).")
        var workers: Int = ProcessInfo.processInfo.activeProcessorCount

        @Option(help: "Slots per worker (default: cores ÷ workers, at least 1).")
        var slots: Int?

        @OptionGroup var cluster: ClusterFlags

        @Argument(help: "Photo folders, scanned recursively.")
        var directories: [String]

        func validate() throws {
            try validateRoots(directories)
            guard (1...256).contains(workers) else { throw ValidationError("--workers must be between 1 and 256") }
            if let slots, !(1...1024).contains(slots) { throw ValidationError("--slots must be between 1 and 1024") }
        }

        func run() throws {
            let logger = Logs.make("photomill.run", level: "warning")
            let started = Date()
            let catalog = try cluster.catalog.open(.readWrite)
            let socketDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("photomill-\(getpid())")
            try FileManager.default.createDirectory(at: socketDirectory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: socketDirectory) }
            let endpoint = "ipc://\(socketDirectory.path)/coordinator.sock"

            var configuration = cluster.configuration(bind: [endpoint], roots: directories)
            configuration.exitWhenDone = true
            // Leases found in the catalog belong to workers of an earlier process, which
            // cannot reach this run's private socket: release them at once.
            configuration.orphanGrace = 0
            let service = CoordinatorService(configuration: configuration, catalog: catalog, logger: logger)
            let exports = try cluster.exportRoot.map { ExportQueue(exporter: try Exporter(catalog: catalog, root: $0), logger: logger) }
            exports?.start()
            if let exports {
                service.onCommitted = { @Sendable ids in exports.enqueue(ids) }
            }

            let slotsPerWorker = slots ?? max(1, ProcessInfo.processInfo.activeProcessorCount / workers)
            let pool = LocalWorkers(count: workers, endpoint: endpoint, slots: slotsPerWorker,
                                    kinds: cluster.processing.kindList, ocrLanguage: cluster.processing.ocrLanguage,
                                    roots: directories.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
            let trap = SignalTrap { service.stop() }
            let progress = ProgressReporter(catalog: catalog)

            service.onWorkPending = { pool.start() }
            let finished = CoordinatorThread(service: service)
            progress.start()
            let result = finished.wait()
            progress.stop()
            pool.stop()
            exports?.finish()
            withExtendedLifetime(trap) {}

            switch result {
            case .failure(let error):
                printError("photomill run: \(error)")
                throw ExitCode(1)
            case .success(let outcome):
                let status = try catalog.status()
                let summary = RunSummary(status: status, scan: outcome.scan, elapsed: Date().timeIntervalSince(started),
                                         exportRoot: cluster.exportRoot, failures: try catalog.failedTasks(limit: 20),
                                         restartedWorkers: pool.restarts)
                print(summary.text())
                if let failures = exports?.failures, failures > 0 {
                    printError("photomill run: \(failures) export batches could not be written (causes above); the catalog holds every result, `photomill export` writes them again")
                    throw ExitCode(1)
                }
                if status.total(.failed) > 0 || status.total(.pending) > 0 || status.total(.leased) > 0 { throw ExitCode(1) }
            }
        }
    }
}

/// Runs the coordinator on a thread of its own and hands back how it ended.
final class CoordinatorThread: @unchecked Sendable {
    // @unchecked: `result` is written once by the thread before `done` is signalled.
    private var result: Result<CoordinatorService.Outcome, any Error>?
    private let done = DispatchSemaphore(value: 0)

    init(service: CoordinatorService) {
        let thread = Thread { [self] in
            result = Result { try service.run() }
            done.signal()
        }
        thread.name = "photomill-coordinator"
        thread.start()
    }

    func wait() -> Result<CoordinatorService.Outcome, any Error> {
        done.wait()
        return result!
    }
}
