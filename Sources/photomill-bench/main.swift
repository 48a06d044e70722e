import ArgumentParser
import Foundation

/// `swift run -c release photomill-bench`: the figures of docs/benchmarks.md.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photomill-bench",
        abstract: "Measure photomill against its limits and against the tools a user would use instead.")

    @Option(help: "Trivial tasks the coordinator benchmark commits.")
    var trivialTasks = 100_000

    @Option(help: "Echo workers in the coordinator benchmark.")
    var echoWorkers = 2

    @Option(help: "Slots (credits) of each echo worker.")
    var echoSlots = 64

    @Option(help: "Transport of the coordinator benchmark: ipc or tcp.")
    var transport = "ipc"

    @Option(help: "Comma-separated parts to run: catalog, coordinator, zmq (default: all).")
    var only = "catalog,coordinator,zmq"

    func validate() throws {
        guard ["ipc", "tcp"].contains(transport) else { throw ValidationError("--transport must be ipc or tcp") }
    }

    func run() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("photomill-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if ProcessInfo.processInfo.environment["PHOTOMILL_BENCH_KEEP"] == nil { try? FileManager.default.removeItem(at: directory) } }
        let endpoint = transport == "ipc" ? "ipc://\(directory.path)/coordinator.sock" : "tcp://127.0.0.1:*"

        let parts = Set(only.split(separator: ",").map(String.init))
        if parts.contains("catalog") {
            let alone = try CatalogBench(tasks: trivialTasks).run(in: directory)
            print("catalog alone (page, lease, commit): \(Int(alone)) results/s")
        }
        guard parts.contains("coordinator") else { return }
        let trivial = try CoordinatorBench(tasks: trivialTasks, workers: echoWorkers, slots: echoSlots, endpoint: endpoint)
            .run(in: directory)
        print("coordinator, trivial results: \(Int(trivial.perSecond)) committed/s (\(trivial.committed) in \(String(format: "%.2f", trivial.seconds)) s; coordinator thread CPU \(String(format: "%.2f", trivial.coordinatorCPUSeconds)) s = \(String(format: "%.1f", trivial.coordinatorCPUSeconds / Double(trivial.committed) * 1e6)) µs/result; whole process \(String(format: "%.1f", trivial.processCPUSeconds / Double(trivial.committed) * 1e6)) µs/result)")
        let rawEndpoint = transport == "ipc" ? "ipc://\(directory.path)/echo.sock" : "tcp://127.0.0.1:*"
        let raw = try RoundTripBench(endpoint: rawEndpoint, window: echoWorkers * echoSlots, seconds: 2).run()
        print("libzmq round trips (window \(echoWorkers * echoSlots)): \(Int(raw))/s")
        let lockstep = try RoundTripBench(endpoint: rawEndpoint.replacingOccurrences(of: "echo", with: "echo1"), window: 1, seconds: 2).run()
        print("libzmq round trips (lockstep): \(Int(lockstep))/s")
    }
}

Bench.main()
