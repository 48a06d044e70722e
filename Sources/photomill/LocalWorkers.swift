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

import Foundation
import PhotomillCore
import ServiceLifecycle

/// The worker processes `photomill run` starts on this host: the same executable, so a
/// crash in image decoding takes down one worker, never the coordinator. A worker that
/// dies while the run goes on is started again (its jobs come back through their leases).
/// As a `Service`, it stops them at graceful shutdown: SIGTERM (they drain), then SIGKILL
/// for any still running after 10 s. It fails (and so ends the run) when its workers
/// cannot start: `startFailuresInARow` of them in a row could not be spawned or exited
/// with an error within `quickExit` of their start, which no restart will mend.
final class LocalWorkers: Service, @unchecked Sendable {
    // @unchecked: `processes`, `startedAt`, `stopping`, `_restarts`, `failuresInARow` are guarded by
    // `lock`; `running` and `ends` are thread-safe; `launching` serialises spawns.
    private let count: Int
    private let arguments: [String]
    private let lock = NSLock()
    private let launching = NSLock()
    private var processes: [Process] = []
    private var startedAt: [ObjectIdentifier: MonotonicInstant] = [:]
    private var stopping = false
    private var _restarts = 0
    private var failuresInARow = 0
    /// Entered for each process started, left when it ends.
    private let running = DispatchGroup()
    /// Yields nil at graceful shutdown, or why the workers cannot start.
    private let ends = AsyncStream<WorkersCannotStart?>.makeStream()

    static let startFailuresInARow = 3
    static let quickExit = 10.0

    /// `roots`: the folders being processed, which local workers read directly.
    init(count: Int, endpoint: String, slots: Int, kinds: String, ocrLanguage: String, roots: [String]) {
        self.count = count
        arguments =
            [
                "worker", "--die-with-parent", "--connect", endpoint, "--slots", String(slots), "--kinds", kinds,
                "--ocr-languages", ocrLanguage, "--log-level", "error",
            ] + roots.flatMap { ["--root", $0] }
    }

    var restarts: Int { lock.withLock { _restarts } }

    /// Starts the workers (the coordinator calls it once there is work).
    func start() {
        for _ in 0..<count { launch() }
    }

    func run() async throws {
        let failure = await withGracefulShutdownHandler {
            await ends.stream.first { _ in true } ?? nil
        } onGracefulShutdown: { [ends] in
            ends.continuation.yield(nil)
        }
        // Waiting for processes blocks: not on the cooperative pool.
        await OwnedThread(name: "pm-workers-stop") { [self] in stop() }.value
        if let failure { throw failure }
    }

    private func launch() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        // Set here, so the worker need not execute itself again to set it (docs/processing.md).
        process.environment = ProcessInfo.processInfo.environment.merging(["OMP_THREAD_LIMIT": "1"]) { own, _ in own }
        // `--die-with-parent`: this process alone holds the pipe's writing end, so the
        // kernel closes it, and the worker reads end of file, however this process ends.
        process.standardInput = Pipe()
        process.terminationHandler = { [weak self] ended in self?.ended(ended) }
        guard
            lock.withLock({ () -> Bool in
                guard !stopping else { return false }
                processes.append(process)
                return true
            })
        else { return }
        running.enter()
        do {
            // One spawn at a time: a worker started between another's pipe and its spawn
            // would inherit that pipe's writing end and keep the other alive after us.
            try launching.withLock {
                try process.run()
                lock.withLock { startedAt[ObjectIdentifier(process)] = .now() }
            }
        } catch {
            lock.withLock { processes.removeAll { $0 === process } }
            running.leave()
            failedToStart(
                WorkersCannotStart(
                    cause:
                        "could not be started from \(process.executableURL?.path ?? "photomill") (\(error.fileSystemReason))"
                )
            )
        }
    }

    private func ended(_ process: Process) {
        let now = MonotonicInstant.now()
        let (again, lasted) = lock.withLock { () -> (Bool, Double) in
            processes.removeAll { $0 === process }
            let lasted = startedAt.removeValue(forKey: ObjectIdentifier(process)).map { now - $0 } ?? 0
            guard !stopping else { return (false, lasted) }
            _restarts += 1
            return (_restarts <= 1000, lasted)
        }
        running.leave()
        // A crash (a signal) is a photo's fault, a clean exit a drain: neither counts.
        if process.terminationReason == .exit, process.terminationStatus != 0, lasted < Self.quickExit {
            failedToStart(
                WorkersCannotStart(
                    cause:
                        "exited with status \(process.terminationStatus) within \(Int(Self.quickExit)) s of their start (the worker's message is above)"
                )
            )
        } else {
            lock.withLock { failuresInARow = 0 }
        }
        if again { launch() }
    }

    private func failedToStart(_ failure: WorkersCannotStart) {
        let giveUp = lock.withLock { () -> Bool in
            guard !stopping else { return false }
            failuresInARow += 1
            guard failuresInARow >= Self.startFailuresInARow else { return false }
            stopping = true
            return true
        }
        if giveUp { ends.continuation.yield(failure) }
    }

    /// SIGTERM to every worker, then SIGKILL to any still running after 10 s.
    private func stop() {
        let started = lock.withLock { () -> [Process] in
            stopping = true
            return processes
        }
        for process in started where process.isRunning { kill(process.processIdentifier, SIGTERM) }
        guard running.wait(timeout: .now() + 10) == .timedOut else { return }
        for process in started where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        _ = running.wait(timeout: .now() + 5)
    }
}

/// `run` gave up starting its workers: the cause is the same every time (a binary that
/// was replaced or lacks a library, a resource limit), so starting more would loop.
struct WorkersCannotStart: Error, CustomStringConvertible {
    var cause: String

    var description: String {
        "its worker processes cannot start: \(LocalWorkers.startFailuresInARow) in a row \(cause); nothing was lost, fix the cause and run the same command again"
    }
}
