import ArgumentParser
import Foundation

/// `swift build -c release && .build/release/photomill-bench`: the figures of docs/benchmarks.md.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photomill-bench",
        abstract: "Measure photomill against its limits and against the tools a user would use instead.",
        discussion: "Build first with `swift build -c release`; the bench runs the photomill binary beside it.")

    @Option(help: "Comma-separated parts to run: processing, ocr, coordinator, memory, catalog, zmq, dashboard, steering.")
    var only = "processing,ocr,coordinator,memory,zmq"

    @Option(help: ArgumentHelp("A folder of JPEGs to measure processing on (default: 12-megapixel photos of `photomill samples`).", valueName: "DIR"))
    var folder: String?

    @Option(help: "How many 12-megapixel photos to generate.")
    var photos = 96

    @Option(help: "How many samples to generate for the pages of text (about one in seven is a page).")
    var samples = 70

    @Option(help: "Run each processing measurement this many times and keep the fastest.")
    var repeats = 1

    @Option(help: "Trivial tasks the coordinator benchmark commits.")
    var trivialTasks = 100_000

    @Option(help: "Echo workers in the coordinator benchmark.")
    var echoWorkers = 2

    @Option(help: "Slots (credits) of each echo worker.")
    var echoSlots = 64

    @Option(help: ArgumentHelp("Catalog sizes (tasks) the memory benchmark runs the coordinator over, each with the same pending tasks.", valueName: "N,N,..."))
    var memoryCatalogs = "30000,1000000"

    @Option(help: "Pending tasks in each catalog of the memory benchmark.")
    var memoryPending = 20_000

    @Option(help: "Transport of the coordinator benchmark: ipc or tcp.")
    var transport = "ipc"

    @Option(help: "Rounds of the dashboard part (each: the coordinator with HTTP off, then on).")
    var dashboardRounds = 3

    @Option(help: "Pending tasks of the steering part's catalog.")
    var steeringTasks = 200_000

    private static let parts: Set<String> = ["processing", "ocr", "coordinator", "memory", "catalog", "zmq", "dashboard", "steering"]

    func validate() throws {
        guard ["ipc", "tcp"].contains(transport) else { throw ValidationError("--transport must be ipc or tcp, not '\(transport)'") }
        let unknown = Set(only.split(separator: ",").map(String.init)).subtracting(Self.parts)
        guard unknown.isEmpty else {
            throw ValidationError("--only: unknown part \(unknown.sorted().joined(separator: ", ")); choose from \(Self.parts.sorted().joined(separator: ", "))")
        }
        guard let sizes = memorySizes, sizes.allSatisfy({ $0 > memoryPending }) else {
            throw ValidationError("--memory-catalogs: comma-separated task counts, each above --memory-pending (\(memoryPending))")
        }
        guard photos > 0, samples > 0, repeats > 0, trivialTasks > 0, echoWorkers > 0, echoSlots > 0 else {
            throw ValidationError("counts must be positive")
        }
    }

    private var memorySizes: [Int]? {
        let sizes = memoryCatalogs.split(separator: ",").map { Int($0) }
        return sizes.isEmpty || sizes.contains(nil) ? nil : sizes.compactMap { $0 }
    }

    func run() throws {
        let parts = Set(only.split(separator: ",").map(String.init))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("photomill-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if ProcessInfo.processInfo.environment["PHOTOMILL_BENCH_KEEP"] == nil { try? FileManager.default.removeItem(at: directory) } }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let photomill = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("photomill").path
        if !parts.isDisjoint(with: ["processing", "ocr", "memory"]) {
            guard FileManager.default.isExecutableFile(atPath: photomill) else {
                throw BenchError("no photomill binary beside the bench at \(photomill): run `swift build -c release` first")
            }
        }
        print("photomill-bench: \(cores) cores, \(ProcessInfo.processInfo.operatingSystemVersionString)")

        if parts.contains("processing") {
            let set = try folder.map(PhotoSet.folder) ?? PhotoSet.photos(photomill, count: photos, in: directory)
            let figures = try ProcessingBench(photomill: photomill, set: set, scratch: directory, cores: cores, repeats: repeats).run()
            Report.processing(figures, set: set, cores: cores)
        }
        if parts.contains("ocr") {
            let pages = try PhotoSet.pages(photomill, count: samples, in: directory)
            let figures = try OCRBench(photomill: photomill, set: pages, scratch: directory, cores: cores).run()
            Report.ocr(figures, pages: pages.files.count)
        }
        if parts.contains("catalog") {
            let alone = try CatalogBench(tasks: trivialTasks).run(in: directory)
            print("catalog alone (page, lease, commit): \(Int(alone)) results/s")
        }
        let endpoint = { (name: String) in transport == "ipc" ? "ipc://\(directory.path)/\(name).sock" : "tcp://127.0.0.1:*" }
        if parts.contains("coordinator") {
            let trivial = try CoordinatorBench(tasks: trivialTasks, workers: echoWorkers, slots: echoSlots, endpoint: endpoint("coordinator"))
                .run(in: directory)
            Report.coordinator(trivial, workers: echoWorkers, slots: echoSlots)
        }
        if parts.contains("dashboard") {
            let figures = try DashboardBench(tasks: trivialTasks, workers: echoWorkers, slots: echoSlots, rounds: dashboardRounds,
                                             endpoint: endpoint).run(in: directory)
            Report.dashboard(figures, workers: echoWorkers, slots: echoSlots)
        }
        if parts.contains("steering") {
            let figures = try SteeringBench(tasks: steeringTasks, workers: echoWorkers, slots: echoSlots, endpoint: endpoint("steering"))
                .run(in: directory)
            Report.steering(figures)
        }
        if parts.contains("memory") {
            let figures = try MemoryBench(photomill: photomill, sizes: memorySizes!, pending: memoryPending,
                                          workers: echoWorkers, slots: echoSlots).run(in: directory)
            Report.memory(figures, pending: memoryPending)
        }
        if parts.contains("zmq") {
            let window = echoWorkers * echoSlots
            let pipelined = try RoundTripBench(endpoint: endpoint("echo"), window: window, seconds: 2).run()
            let lockstep = try RoundTripBench(endpoint: endpoint("echo1"), window: 1, seconds: 2).run()
            print(Report.row("libzmq round trips, \(window) outstanding (\(transport))", String(Int(pipelined)) + "/s"))
            print(Report.row("libzmq round trips, one at a time (\(transport))", String(Int(lockstep)) + "/s"))
        }
    }
}

Bench.main()
