import Foundation

/// The worker processes `photomill run` starts on this host: the same executable, so a
/// crash in image decoding takes down one worker, never the coordinator. A worker that
/// dies while the run goes on is started again (its jobs come back through their leases).
final class LocalWorkers: @unchecked Sendable {
    // @unchecked: `processes`, `stopping` and `restarts` are guarded by `lock`.
    private let count: Int
    private let arguments: [String]
    private let lock = NSLock()
    private var processes: [Process] = []
    private var stopping = false
    private var _restarts = 0

    /// `roots`: the folders being processed, which local workers read directly.
    init(count: Int, endpoint: String, slots: Int, kinds: String, ocrLanguage: String, roots: [String]) {
        self.count = count
        arguments = ["worker", "--connect", endpoint, "--slots", String(slots), "--kinds", kinds,
                     "--ocr-languages", ocrLanguage, "--log-level", "error"] + roots.flatMap { ["--root", $0] }
    }

    var restarts: Int { lock.withLock { _restarts } }

    func start() {
        for _ in 0..<count { launch() }
    }

    private func launch() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        // Set here, so the worker need not execute itself again to set it (docs/processing.md).
        process.environment = ProcessInfo.processInfo.environment.merging(["OMP_THREAD_LIMIT": "1"]) { own, _ in own }
        process.terminationHandler = { [weak self] ended in self?.ended(ended) }
        lock.withLock { processes.append(process) }
        do {
            try process.run()
        } catch {
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
        if again { launch() }
    }

    /// SIGTERM to every worker, then SIGKILL to any still running after 10 s.
    func stop() {
        let running = lock.withLock { () -> [Process] in
            stopping = true
            return processes
        }
        for process in running where process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(10)
        while running.contains(where: \.isRunning) && Date() < deadline { usleep(2_000) }
        for process in running where process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
