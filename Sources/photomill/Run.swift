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

import ArgumentParser
import Catalog
import Coordinator
import Dashboard
import Exports
import Foundation
import Logging
import PhotomillCore
import ServiceLifecycle

extension Photomill {
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Process photo folders with a coordinator and local worker processes.",
            discussion: """
                Scans the folders into the catalog, starts WORKERS worker processes that talk \
                to the coordinator over ZeroMQ (ipc), shows progress, and exits when every task \
                is done or failed: 0 when all are done, 1 when some failed (see `photomill \
                failed`), 130 when stopped by a signal first (run it again to go on); the other \
                statuses are in docs/operations.md. A re-run over an unchanged tree does no work. \
                With --watch it goes on once the work is done, processing what changes in the folders \
                (docs/operations.md, "A living library") until Ctrl-C. \
                One coordinator per catalog: a second `run` on a catalog in use exits 75.
                """
        )

        @Option(help: "Local worker processes (default: one per core).")
        var workers: Int = ProcessInfo.processInfo.activeProcessorCount

        @Option(help: "Slots per worker (default: cores / workers, at least 1).")
        var slots: Int?

        @OptionGroup var cluster: ClusterFlags
        @OptionGroup var library: LibraryFlags
        @OptionGroup var http: HTTPFlags

        @Flag(
            help:
                "Keep going once the work is done: watch the folders and process what changes, until Ctrl-C (exit 0 when all was done, 130 when work was left)."
        )
        var watch = false

        @Argument(help: "Photo folders, scanned recursively.")
        var directories: [String]

        func validate() throws {
            try validateRoots(directories)
            guard (1...256).contains(workers) else { throw ValidationError("--workers must be between 1 and 256") }
            if let slots, !(1...1024).contains(slots) { throw ValidationError("--slots must be between 1 and 1024") }
        }

        func run() async throws {
            EarlySignals.trap()
            try checkRoots(directories, command: "run")
            let logger = Logs.make("photomill.run", level: "warning")
            let started = MonotonicInstant.now()
            let startedAt = WallClock.now()
            let httpConfiguration = try http.checkedConfiguration(command: "run")
            let exportRoot = try cluster.exportRoot(roots: directories)
            let catalog = try cluster.catalog.open(.exclusive, logger: logger)
            defer { catalog.close() }
            let socketDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("photomill-\(getpid())")
            try FileManager.default.createDirectory(at: socketDirectory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: socketDirectory) }
            let endpoint = "ipc://\(socketDirectory.path)/coordinator.sock"

            var configuration = cluster.configuration(bind: [endpoint], roots: directories, exportRoot: exportRoot)
            configuration.library = library.configuration(watch: watch)
            configuration.exitWhenDone = !watch
            // Leases found in the catalog belong to workers of an earlier process, which
            // cannot reach this run's private socket: release them at once.
            configuration.orphanGrace = 0
            let slotsPerWorker = slots ?? max(1, ProcessInfo.processInfo.activeProcessorCount / workers)
            let pool = LocalWorkers(
                count: workers,
                endpoint: endpoint,
                slots: slotsPerWorker,
                kinds: cluster.processing.kindList,
                ocrLanguage: cluster.processing.ocrLanguage,
                roots: directories.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            )
            let stack: CoordinatorStack
            let resumed: Int
            do {
                resumed = try catalog.unfinishedTaskCount(kinds: configuration.kinds)
                stack = try CoordinatorStack(
                    configuration: configuration,
                    catalog: catalog,
                    exportRoot: exportRoot,
                    http: httpConfiguration,
                    hooks: .init(workPending: { pool.start() }),
                    logger: logger
                )
            } catch {
                throw fail("run", error, fallback: .cannotCreate)
            }
            stack.dashboard?.onListening = { address in printError("photomill run: dashboard at http://\(address)/") }

            do {
                try await stack.group(with: [pool, ProgressReporter(catalog: catalog)], logger: logger).run()
            } catch {
                throw fail("run", error)
            }
            let outcome = stack.coordinator.outcome
            let summary: RunSummary
            do {
                var status = try catalog.status()
                status.add(
                    try catalog.heldBack(now: status.readAt, bytesLimit: CoordinatorConfiguration.maxFileBytesAsBlobs)
                )
                summary = RunSummary(
                    status: status,
                    scan: outcome?.scan ?? ScanSummary(),
                    resumed: resumed,
                    finished: try catalog.tasksFinished(since: startedAt),
                    elapsed: MonotonicInstant.now() - started,
                    exportRoot: exportRoot,
                    failures: try catalog.failedTasks(limit: 20),
                    folders: try catalog.unreadableFolders(),
                    restartedWorkers: pool.restarts
                )
            } catch {
                throw fail("run", error)
            }
            print(summary.text())
            let left = summary.status.total(.pending) + summary.status.total(.leased)
            // `--watch` ends only by a signal: done when nothing was left to do.
            guard outcome?.completed == true || (watch && left == 0) else {
                printError(
                    "photomill run: interrupted with \(left) tasks still to do; run the same command again to go on"
                )
                throw ExitCode.interrupted
            }
            if let failures = stack.exports?.failures, failures > 0 {
                printError(
                    "photomill run: \(failures) export batches could not be written (causes above); the catalog holds every result, `photomill export` writes them again"
                )
                throw ExitCode.someFailed
            }
            if summary.status.total(.failed) > 0 || !summary.folders.isEmpty { throw ExitCode.someFailed }
        }
    }
}
