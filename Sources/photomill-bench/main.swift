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
import Foundation

/// `swift build -c release && .build/release/photomill-bench`: the figures of docs/benchmarks.md.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photomill-bench",
        abstract: "Measure photomill against its limits and against the tools a user would use instead.",
        discussion: "Build first with `swift build -c release`; the bench runs the photomill binary beside it."
    )

    @Option(
        help:
            "Comma-separated parts to run: processing, metadata (with --folder), ocr, coordinator, memory, catalog, zmq, workers, bytes, dashboard, steering, xmp."
    )
    var only = "processing,ocr,coordinator,memory,zmq,workers,bytes"

    @Option(
        help: ArgumentHelp(
            "A folder of JPEGs to measure processing on (default: 12-megapixel photos of `photomill samples`).",
            valueName: "DIR"
        )
    )
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

    @Option(
        help: ArgumentHelp(
            "Catalog sizes (tasks) the memory benchmark runs the coordinator over, each with the same pending tasks.",
            valueName: "N,N,..."
        )
    )
    var memoryCatalogs = "30000,1000000"

    @Option(help: "Pending tasks in each catalog of the memory benchmark.")
    var memoryPending = 20_000

    @Option(help: "Transport of the coordinator benchmark: ipc or tcp.")
    var transport = "ipc"

    @Option(help: "Rounds of the dashboard part (each: the coordinator with HTTP off, then on).")
    var dashboardRounds = 3

    @Option(help: "Pending tasks of the steering part's catalog.")
    var steeringTasks = 200_000

    @Option(
        help: ArgumentHelp(
            "Numbers of simulated workers the workers benchmark connects, one after the other.",
            valueName: "N,N,..."
        )
    )
    var simulatedWorkers = "2,1000"

    @Option(help: "Slots (credits) of each simulated worker.")
    var simulatedSlots = 4

    @Option(help: "Trivial tasks the simulated workers clear, for each number of them.")
    var simulatedTasks = 100_000

    @Option(help: "How many large files the bytes benchmark hashes.")
    var largeFiles = 24

    @Option(help: "Size of each large file, in MB (at most 64: one blob frame).")
    var largeFileMB = 48

    @Option(
        help: ArgumentHelp(
            "Another build's photomill binary for the parts that run it as processes (workers, bytes, memory), to compare builds with this bench.",
            valueName: "PATH"
        )
    )
    var photomill: String?

    private static let parts: Set<String> = [
        "processing", "ocr", "coordinator", "memory", "catalog", "zmq", "workers", "bytes", "dashboard", "steering",
        "xmp",
    ]

    func validate() throws {
        guard ["ipc", "tcp"].contains(transport) else {
            throw ValidationError("--transport must be ipc or tcp, not '\(transport)'")
        }
        let unknown = Set(only.split(separator: ",").map(String.init)).subtracting(Self.parts)
        guard unknown.isEmpty else {
            throw ValidationError(
                "--only: unknown part \(unknown.sorted().joined(separator: ", ")); choose from \(Self.parts.sorted().joined(separator: ", "))"
            )
        }
        guard let sizes = memorySizes, sizes.allSatisfy({ $0 > memoryPending }) else {
            throw ValidationError(
                "--memory-catalogs: comma-separated task counts, each above --memory-pending (\(memoryPending))"
            )
        }
        guard photos > 0, samples > 0, repeats > 0, trivialTasks > 0, echoWorkers > 0, echoSlots > 0,
            simulatedSlots > 0,
            simulatedTasks > 0, largeFiles > 0
        else {
            throw ValidationError("counts must be positive")
        }
        guard let counts = simulatedCounts, counts.allSatisfy({ (1...4_000).contains($0) }) else {
            throw ValidationError("--simulated-workers: comma-separated numbers from 1 to 4000, such as 2,1000")
        }
        guard (1...64).contains(largeFileMB) else {
            throw ValidationError("--large-file-mb must be 1 to 64 (one blob frame), not \(largeFileMB)")
        }
    }

    private var simulatedCounts: [Int]? {
        let counts = simulatedWorkers.split(separator: ",").map { Int($0) }
        return counts.isEmpty || counts.contains(nil) ? nil : counts.compactMap { $0 }
    }

    private var memorySizes: [Int]? {
        let sizes = memoryCatalogs.split(separator: ",").map { Int($0) }
        return sizes.isEmpty || sizes.contains(nil) ? nil : sizes.compactMap { $0 }
    }

    func run() throws {
        let parts = Set(only.split(separator: ",").map(String.init))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("photomill-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer {
            if ProcessInfo.processInfo.environment["PHOTOMILL_BENCH_KEEP"] == nil {
                try? FileManager.default.removeItem(at: directory)
            }
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let photomill =
            self.photomill
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("photomill").path
        if !parts.isDisjoint(with: ["processing", "metadata", "ocr", "memory", "workers", "bytes", "xmp"]) {
            guard FileManager.default.isExecutableFile(atPath: photomill) else {
                throw BenchError(
                    "no photomill binary beside the bench at \(photomill): run `swift build -c release` first"
                )
            }
        }
        print("photomill-bench: \(cores) cores, \(ProcessInfo.processInfo.operatingSystemVersionString)")

        if parts.contains("processing") {
            let set = try folder.map(PhotoSet.folder) ?? PhotoSet.photos(photomill, count: photos, in: directory)
            let figures = try ProcessingBench(
                photomill: photomill,
                set: set,
                scratch: directory,
                cores: cores,
                repeats: repeats
            ).run()
            Report.processing(figures, set: set, cores: cores)
        }
        if parts.contains("metadata") {
            guard let folder else { throw BenchError("the metadata part measures a --folder") }
            Report.metadata(
                try MetadataBench(photomill: photomill, folder: folder, repeats: repeats).run(),
                folder: folder
            )
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
        let endpoint = { (name: String) in
            transport == "ipc" ? "ipc://\(directory.path)/\(name).sock" : "tcp://127.0.0.1:*"
        }
        if parts.contains("coordinator") {
            let trivial = try CoordinatorBench(
                tasks: trivialTasks,
                workers: echoWorkers,
                slots: echoSlots,
                endpoint: endpoint("coordinator")
            )
            .run(in: directory)
            Report.coordinator(trivial, workers: echoWorkers, slots: echoSlots)
        }
        if parts.contains("dashboard") {
            let figures = try DashboardBench(
                tasks: trivialTasks,
                workers: echoWorkers,
                slots: echoSlots,
                rounds: dashboardRounds,
                endpoint: endpoint
            ).run(in: directory)
            Report.dashboard(figures, workers: echoWorkers, slots: echoSlots)
        }
        if parts.contains("steering") {
            let figures = try SteeringBench(
                tasks: steeringTasks,
                workers: echoWorkers,
                slots: echoSlots,
                endpoint: endpoint("steering")
            )
            .run(in: directory)
            Report.steering(figures)
        }
        if parts.contains("memory") {
            let figures = try MemoryBench(
                photomill: photomill,
                sizes: memorySizes!,
                pending: memoryPending,
                workers: echoWorkers,
                slots: echoSlots
            ).run(in: directory)
            Report.memory(figures, pending: memoryPending)
        }
        if parts.contains("workers") {
            let figures = try ThousandBench(
                photomill: photomill,
                counts: simulatedCounts!,
                slots: simulatedSlots,
                tasks: simulatedTasks
            )
            .run(in: directory)
            Report.workers(figures, slots: simulatedSlots)
        }
        if parts.contains("bytes") {
            let bench = BytesBench(photomill: photomill, files: largeFiles, fileMB: largeFileMB, slots: 2)
            let stream = try bench.curveStream()
            let large = try bench.largeFiles(in: directory)
            let bytes = try bench.cluster(large, kinds: "hash", workers: 1, slots: 2, byPath: false, in: directory)
            let paths = try bench.cluster(large, kinds: "hash", workers: 1, slots: 2, byPath: true, in: directory)
            try? FileManager.default.removeItem(at: large)
            let set = try folder.map(PhotoSet.folder) ?? PhotoSet.photos(photomill, count: photos, in: directory)
            // The photos just written are still being written back to the disk: the
            // first run would share the machine with that.
            sync()
            var photoRuns: [BytesBench.PhotoRun] = []
            for index in 0..<repeats {
                // The four runs in a new order each time (fed/paths × CURVE/plaintext,
                // rotated by one): none is always the first or the last.
                let order = [(false, true), (true, true), (false, false), (true, false)]
                var runs: [Int: BytesBench.Cluster] = [:]
                for position in 0..<4 {
                    let which = (position + index) % 4
                    runs[which] = try bench.cluster(
                        set.directory,
                        kinds: "hash,metadata,thumbnail",
                        workers: cores,
                        slots: 1,
                        byPath: order[which].0,
                        curve: order[which].1,
                        in: directory
                    )
                }
                photoRuns.append(
                    BytesBench.PhotoRun(bytes: runs[0]!, paths: runs[1]!, plainBytes: runs[2]!, plainPaths: runs[3]!)
                )
            }
            Report.bytes(stream: stream, bytes: bytes, paths: paths, photos: photoRuns, workers: cores)
        }
        if parts.contains("xmp") {
            let figures = try XMPBench(photomill: photomill, repeats: max(3, repeats)).run(in: directory)
            print(
                Report.row(
                    "inspect --kinds metadata, 16 MiB XMP sidecar (\(figures.keywords) keywords)",
                    String(format: "%.2f s", figures.withSidecar)
                )
            )
            print(Report.row("inspect --kinds metadata, no sidecar", String(format: "%.2f s", figures.without)))
            print(
                Report.row(
                    "reading the 16 MiB sidecar (the difference)",
                    String(format: "%.2f s", figures.withSidecar - figures.without)
                )
            )
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
