import Foundation
import PhotomillCore
import ServiceLifecycle

/// The worker processes `photomill run` starts on this host: the same executable, so a
/// crash in image decoding takes down one worker, never the coordinator. A worker that
/// dies while the run goes on is started again (its jobs come back through their leases).
/// As a `Service`, it stops them at graceful shutdown: SIGTERM (they drain), then SIGKILL
/// for any still running after 10 s.
final class LocalWorkers: Service, @unchecked Sendable {
    // @unchecked: `processes`, `stopping` and `_restarts` are guarded by `lock`; `running`
    // is thread-safe.
    private let count: Int
    private let arguments: [String]
    private let lock = NSLock()
    private var processes: [Process] = []
    private var stopping = false
    private var _restarts = 0
    /// Entered for each process started, left when it ends.
    private let running = DispatchGroup()

    /// `roots`: the folders being processed, which local workers read directly.
    init(count: Int, endpoint: String, slots: Int, kinds: String, ocrLanguage: String, roots: [String]) {
        self.count = count
        arguments = ["worker", "--connect", endpoint, "--slots", String(slots), "--kinds", kinds,
                     "--ocr-languages", ocrLanguage, "--log-level", "error"] + roots.flatMap { ["--root", $0] }
    }

    var restarts: Int { lock.withLock { _restarts } }

    /// Starts the workers (the coordinator calls it once there is work).
    func start() {
        for _ in 0..<count { launch() }
    }

    func run() async throws {
        try? await gracefulShutdown()
        // Waiting for processes blocks: not on the cooperative pool.
        await OwnedThread(name: "pm-workers-stop") { [self] in stop() }.value
    }

    private func launch() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        // Set here, so the worker need not execute itself again to set it (docs/processing.md).
        process.environment = ProcessInfo.processInfo.environment.merging(["OMP_THREAD_LIMIT": "1"]) { own, _ in own }
        process.terminationHandler = { [weak self] ended in self?.ended(ended) }
        guard lock.withLock({ () -> Bool in
            guard !stopping else { return false }
            processes.append(process)
            return true
        }) else { return }
        running.enter()
        do {
            try process.run()
        } catch {
            lock.withLock { processes.removeAll { $0 === process } }
            running.leave()
            printError("photomill: cannot start a worker: \(error)")
        }
    }

    private func ended(_ process: Process) {
        let again = lock.withLock { () -> Bool in
            processes.removeAll { $0 === process }
            guard !stopping else { return false }
            _restarts += 1
            return _restarts <= 1000
        }
        running.leave()
        if again { launch() }
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
