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

/// The bench's printed tables.
enum Report {
    static func row(_ label: String, _ values: String...) -> String {
        label.padding(toLength: 58, withPad: " ", startingAt: 0)
            + values.map { $0.padding(toLength: 14, withPad: " ", startingAt: 0) }.joined()
    }

    private static func rate(_ count: Int, _ seconds: Double) -> String {
        String(format: "%.2f", Double(count) / seconds)
    }

    static func processing(_ f: ProcessingBench.Figures, set: PhotoSet, cores: Int) {
        let n = set.files.count
        let mb = set.megabytes
        let perSecond = { (m: Measured) in (rate(n, m.seconds), String(format: "%.1f", mb / m.seconds)) }
        print("\nhash + metadata + thumbnail: \(n) photos, \(String(format: "%.0f", mb)) MB")
        print(row("", "photos/s", "MB/s"))
        let limit = Double(cores) / f.cpuPerPhoto
        for (label, measured) in [
            ("photomill run, 1 worker", f.oneWorker), ("photomill run, \(cores) workers", f.twoWorkers),
            ("shell: GNU parallel -j\(cores) md5sum+exiftool+vipsthumbnail", f.shellPerFile),
            ("shell: each tool once over all files", f.shellBatch),
        ] {
            let (photos, megabytes) = perSecond(measured)
            print(row(label, photos, megabytes))
        }
        print(
            row(
                "photomill run, \(cores) workers, first lease to last result",
                String(format: "%.2f", f.twoWorkersSteady),
                String(format: "%.1f", f.twoWorkersSteady * mb / Double(n))
            )
        )
        print(
            row(
                "in-process limit: CPU per photo \(String(format: "%.1f", f.cpuPerPhoto * 1000)) ms ÷ \(cores) cores",
                String(format: "%.2f", limit),
                String(format: "%.1f", limit * mb / Double(n))
            )
        )
        let two = Double(n) / f.twoWorkers.seconds
        print(
            "  \(cores) workers ÷ 1 worker: ×\(String(format: "%.2f", f.oneWorker.seconds / f.twoWorkers.seconds)); "
                + "÷ per-file shell: ×\(String(format: "%.2f", f.shellPerFile.seconds / f.twoWorkers.seconds)); "
                + "÷ batch shell: ×\(String(format: "%.2f", f.shellBatch.seconds / f.twoWorkers.seconds)); "
                + "of the in-process limit: \(String(format: "%.0f", two / limit * 100)) % "
                + "(first lease to last result: \(String(format: "%.0f", f.twoWorkersSteady / limit * 100)) %)"
        )
        print(
            "  peak RSS with \(cores) workers: coordinator (the run process) \(String(format: "%.0f", f.twoWorkers.peakRSS)) MB, "
                + "largest worker \(String(format: "%.0f", f.twoWorkers.peakChildRSS)) MB"
        )
        print(
            "  thumbnail job, CPU per photo (inspect, medians of runs in turns): alone \(String(format: "%.1f", f.thumbnailJob * 1000)) ms, "
                + "with similarity \(String(format: "%.1f", f.thumbnailAndSimilarityJob * 1000)) ms "
                + "(median of the turns' ratios: \(String(format: "%+.1f", f.similarityCost * 100)) %)"
        )
    }

    static func ocr(_ f: OCRBench.Figures, pages: Int) {
        print("\nOCR: \(pages) pages of text")
        print(row("", "pages/s", "char. errors"))
        print(
            row(
                "photomill run, OCR (and hash)",
                rate(pages, f.photomill.seconds),
                String(format: "%.1f %%", f.photomillErrorRate * 100)
            )
        )
        print(
            row(
                "tesseract command under GNU parallel",
                rate(pages, f.tesseract.seconds),
                String(format: "%.1f %%", f.tesseractErrorRate * 100)
            )
        )
        print("  photomill ÷ tesseract: ×\(String(format: "%.2f", f.tesseract.seconds / f.photomill.seconds))")
    }

    static func coordinator(_ f: CoordinatorBench.Figures, workers: Int, slots: Int) {
        print("")
        print(row("coordinator alone, trivial results (\(workers) echo workers × \(slots))", "\(Int(f.perSecond))/s"))
        print(
            "  \(f.committed) results in \(String(format: "%.2f", f.seconds)) s; CPU per result: coordinator thread "
                + "\(String(format: "%.1f", f.coordinatorCPUSeconds / Double(f.committed) * 1e6)) µs, whole process "
                + "\(String(format: "%.1f", f.processCPUSeconds / Double(f.committed) * 1e6)) µs"
        )
        let perThread = f.threadCPUSeconds.sorted { $0.value > $1.value }
            .filter { $0.value > 0 }.map { "\($0.key) \(String(format: "%.1f", $0.value / Double(f.committed) * 1e6))" }
        print("  CPU per result by thread (µs): " + perThread.joined(separator: ", "))
        // What the CPU per result allows, whatever else the machine runs meanwhile: the
        // cores shared by every thread, and the busiest thread on a core of its own.
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        if let busiest = f.threadCPUSeconds.filter({ $0.key != "pm-sampler" }).max(by: { $0.value < $1.value }),
            busiest.value > 0
        {
            print(
                "  bounds from CPU per result: \(Int(cores)) cores ÷ whole process "
                    + "\(Int(cores * Double(f.committed) / f.processCPUSeconds))/s; \(busiest.key) on a core of its own "
                    + "\(Int(Double(f.committed) / busiest.value))/s"
            )
        }
    }

    static func memory(_ figures: [MemoryBench.Figures], pending: Int) {
        print(
            "\ncoordinator memory: `photomill coordinator` over catalogs with \(pending) tasks pending, the rest done"
        )
        print(row("", "catalog MB", "peak RSS MB", "results/s"))
        for f in figures {
            print(
                row(
                    "\(f.tasks) tasks",
                    String(format: "%.0f", f.catalogMB),
                    String(format: "%.0f", f.peakRSS),
                    String(format: "%.0f", Double(pending) / f.seconds)
                )
            )
        }
    }

    static func dashboard(_ f: DashboardBench.Figures, workers: Int, slots: Int) {
        let mean = { (rates: [Double]) in rates.reduce(0, +) / Double(max(1, rates.count)) }
        let list = { (rates: [Double]) in rates.map { String(Int($0)) }.joined(separator: ", ") }
        print("\ncoordinator, trivial results (\(workers) echo workers × \(slots)), HTTP off and on, alternated")
        print(row("HTTP off (no metrics, no server)", "\(Int(mean(f.off)))/s") + "  " + list(f.off))
        print(row("dashboard open, /metrics scraped every second", "\(Int(mean(f.on)))/s") + "  " + list(f.on))
        print(
            "  on ÷ off: \(String(format: "%.3f", mean(f.on) / mean(f.off))) (\(String(format: "%+.1f", (mean(f.on) / mean(f.off) - 1) * 100)) %)"
        )
        let micros = { (values: [Double]) in values.map { String(format: "%.1f", $0) }.joined(separator: ", ") }
        print("  CPU per result (µs), coordinator loop: off \(micros(f.loopMicrosOff)); on \(micros(f.loopMicrosOn))")
        print(
            "  CPU per result (µs), committer: off \(micros(f.committerMicrosOff)); on \(micros(f.committerMicrosOn))"
        )
        let sorted = f.scrapeSeconds.sorted()
        if let last = sorted.last {
            print(
                "  /metrics during the runs: \(sorted.count) scrapes, median \(String(format: "%.1f", sorted[sorted.count / 2] * 1000)) ms, "
                    + "max \(String(format: "%.1f", last * 1000)) ms"
            )
        }
    }

    static func steering(_ f: SteeringBench.Figures) {
        print("\nsteering a running coordinator (\(f.pendingAtStart) pending tasks, echo workers)")
        print(
            row("prioritize returned → first job of the folder", String(format: "%.0f ms", f.prioritizeSeconds * 1000))
                + String(format: "  (the command: %.0f ms)", f.prioritizeCommandSeconds * 1000)
        )
        print(
            row("pause returned → last job of the paused kind", String(format: "%.0f ms", f.pauseSeconds * 1000))
                + String(format: "  (the command: %.0f ms)", f.pauseCommandSeconds * 1000)
        )
        print(
            "  jobs of the paused kind sent 0.5-2.5 s after the pause: \(f.jobsAfterPause); pending when prioritized: \(f.pendingAtPrioritize)"
        )
    }

    static func workers(_ figures: [ThousandBench.Figures], slots: Int) {
        print(
            "\nmany workers: `photomill coordinator` (ipc) and simulated workers × \(slots) slots, heartbeating once a second"
        )
        print(row("", "idle CPU", "RSS idle MB", "results/s", "fairness"))
        for f in figures {
            print(
                row(
                    "\(f.workers) workers",
                    String(format: "%.1f %%", f.idleCPU * 100),
                    String(format: "%.0f", f.idleRSS),
                    "\(Int(f.perSecond))",
                    String(format: "%.3f", f.fairness)
                )
            )
            let threads = f.idleThreads.sorted { $0.value > $1.value }.filter { $0.value >= 0.0005 }
                .map { "\($0.key) \(String(format: "%.1f", $0.value * 100))" }
            print("  idle CPU by thread (% of a core): " + threads.joined(separator: ", "))
            print(
                "  RSS: \(String(format: "%.0f", f.baseRSS)) MB before any worker, \(String(format: "%.0f", f.idleRSS)) MB with them "
                    + "(\(String(format: "%.0f", (f.idleRSS - f.baseRSS) * 1024 / Double(f.workers))) kB a worker), peak \(String(format: "%.0f", f.peakRSS)) MB"
            )
            print(
                "  \(f.committed) results in \(String(format: "%.2f", f.seconds)) s; coordinator CPU per result "
                    + "\(String(format: "%.1f", f.cpuPerResult * 1e6)) µs, simulated workers "
                    + "\(String(format: "%.1f", f.benchCPUPerResult * 1e6)) µs; jobs per worker \(f.fewestJobs)–\(f.mostJobs)"
            )
            let busy = f.workThreads.sorted { $0.value > $1.value }.filter { $0.value >= 1e-7 }
                .map { "\($0.key) \(String(format: "%.1f", $0.value * 1e6))" }
            print("  coordinator CPU per result by thread (µs): " + busy.joined(separator: ", "))
            if let detection = f.detection {
                print(
                    "  a worker fallen silent dropped \(String(format: "%.2f", detection)) s after its last message (liveness: 3 × 1 s)"
                )
            }
        }
        if let two = figures.first(where: { $0.workers == 2 }), let most = figures.max(by: { $0.workers < $1.workers }),
            most.workers > 2
        {
            print(
                "  \(most.workers) workers ÷ 2 workers, results/s: \(String(format: "%.2f", most.perSecond / two.perSecond))"
            )
        }
    }

    static func bytes(
        stream: Double,
        bytes: BytesBench.Cluster,
        paths: BytesBench.Cluster,
        photos: [BytesBench.PhotoRun],
        workers: Int
    ) {
        print("\nbytes: tcp loopback, CURVE, first lease to last result")
        print(row("", "MB/s", "files/s"))
        print(row("libzmq alone: one CURVE stream of 32 MiB messages", String(format: "%.0f", stream), ""))
        print(
            row(
                "1 worker fed bytes, hash, \(bytes.files) files of \(String(format: "%.0f", bytes.megabytes / Double(bytes.files))) MB",
                String(format: "%.0f", bytes.megabytesPerSecond),
                String(format: "%.2f", bytes.filesPerSecond)
            )
        )
        print(
            row(
                "1 worker reading the paths, hash, the same files",
                String(format: "%.0f", paths.megabytesPerSecond),
                String(format: "%.2f", paths.filesPerSecond)
            )
        )
        for (index, run) in photos.enumerated() {
            print(
                row(
                    "\(workers) workers fed bytes, 12 MP hash+metadata+thumbnail (run \(index + 1))",
                    String(format: "%.1f", run.bytes.megabytesPerSecond),
                    String(format: "%.2f", run.bytes.filesPerSecond)
                )
            )
            print(
                row(
                    "\(workers) workers reading the paths, the same (run \(index + 1))",
                    String(format: "%.1f", run.paths.megabytesPerSecond),
                    String(format: "%.2f", run.paths.filesPerSecond)
                )
            )
            print(
                row(
                    "  the same two in plaintext (--insecure): fed bytes",
                    String(format: "%.1f", run.plainBytes.megabytesPerSecond),
                    String(format: "%.2f", run.plainBytes.filesPerSecond)
                )
            )
            print(
                row(
                    "  reading the paths",
                    String(format: "%.1f", run.plainPaths.megabytesPerSecond),
                    String(format: "%.2f", run.plainPaths.filesPerSecond)
                )
            )
        }
        print(
            "  12 MP, bytes sent ÷ bytes of the photos, fed bytes: "
                + photos.map { String(format: "%.3f", $0.bytes.megabytesSent / $0.bytes.megabytes) }.joined(
                    separator: ", "
                )
                + " over CURVE, "
                + photos.map { String(format: "%.3f", $0.plainBytes.megabytesSent / $0.plainBytes.megabytes) }.joined(
                    separator: ", "
                )
                + " in plaintext (reading the paths: "
                + photos.map { String(format: "%.3f", $0.paths.megabytesSent / $0.paths.megabytes) }.joined(
                    separator: ", "
                ) + ")"
        )
        print(
            "  12 MP, last hash done ÷ last result, fed bytes: "
                + photos.map { String(format: "%.2f", $0.bytes.lastHashSeconds / $0.bytes.seconds) }.joined(
                    separator: ", "
                )
                + " (CURVE), "
                + photos.map { String(format: "%.2f", $0.plainBytes.lastHashSeconds / $0.plainBytes.seconds) }.joined(
                    separator: ", "
                )
                + " (plaintext); reading the paths: "
                + photos.map { String(format: "%.2f", $0.paths.lastHashSeconds / $0.paths.seconds) }.joined(
                    separator: ", "
                )
                + ", "
                + photos.map { String(format: "%.2f", $0.plainPaths.lastHashSeconds / $0.plainPaths.seconds) }.joined(
                    separator: ", "
                )
        )
        // Processing a photo by the workers' clocks, and the share of the run the slots
        // spent on it: a mode whose rate is lower with as much processing a photo lost time
        // between jobs.
        func busy(_ run: KeyPath<BytesBench.PhotoRun, BytesBench.Cluster>) -> String {
            photos.map {
                let cluster = $0[keyPath: run]
                return String(
                    format: "%.1f ms (%.0f %%)",
                    cluster.processingSeconds * 1000 / Double(cluster.files),
                    cluster.processingSeconds * 100 / (cluster.seconds * Double(workers))
                )
            }.joined(separator: ", ")
        }
        print(
            "  12 MP, processing a photo (the workers' clocks) and the slots' busy share: fed over CURVE "
                + busy(\.bytes) + "; paths over CURVE " + busy(\.paths) + "; fed in plaintext " + busy(\.plainBytes)
                + "; paths in plaintext " + busy(\.plainPaths)
        )
        print(
            "  fed bytes ÷ libzmq alone: \(String(format: "%.2f", bytes.megabytesPerSecond / stream)); 12 MP fed bytes ÷ paths: "
                + photos.map { String(format: "%.3f", $0.bytes.filesPerSecond / $0.paths.filesPerSecond) }.joined(
                    separator: ", "
                )
                + " over CURVE, "
                + photos.map { String(format: "%.3f", $0.plainBytes.filesPerSecond / $0.plainPaths.filesPerSecond) }
                .joined(separator: ", ")
                + " in plaintext"
        )
    }
}
