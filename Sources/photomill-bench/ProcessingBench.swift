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

/// hash + metadata + thumbnail over one set of photos, five ways: photomill with 1 and 2
/// local workers, the processors' own CPU cost, and the two shell forms a user would write;
/// and the thumbnail job's cost with and without the similarity kind.
struct ProcessingBench {
    var photomill: String
    var set: PhotoSet
    var scratch: URL
    var cores: Int
    var repeats: Int

    struct Figures {
        var oneWorker: Measured
        var twoWorkers: Measured
        /// Photos per second of the 2-worker run between its first lease and its last
        /// result: the whole command without start-up, scan and shutdown.
        var twoWorkersSteady: Double
        /// CPU seconds per photo of `photomill inspect` (no messaging, no catalog).
        var cpuPerPhoto: Double
        var shellPerFile: Measured
        var shellBatch: Measured
        /// CPU seconds per photo of `photomill inspect --kinds thumbnail`, and with
        /// `similarity` (the perceptual hash of the same decoded picture): the medians of
        /// runs taken in turns, so that the machine's load falls on both alike; and the
        /// median of each turn's ratio, what the similarity kind costs (the fastest run of
        /// each, compared, moved by ±8 % between two quiet runs of one build).
        var thumbnailJob: Double
        var thumbnailAndSimilarityJob: Double
        var similarityCost: Double
    }

    func run() throws -> Figures {
        let list = scratch.appendingPathComponent("files.txt")
        try set.files.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let thumbs = scratch.appendingPathComponent("shell-thumbs")
        try FileManager.default.createDirectory(at: thumbs, withIntermediateDirectories: true)
        let one = try best(\.measured.seconds) { try cluster(workers: 1) }.measured
        let two = try best(\.measured.seconds) { try cluster(workers: 2) }
        let inspect = try best(\.seconds) {
            try checked(Spawn.run([photomill, "inspect", "--kinds", "hash,metadata,thumbnail", "--json"] + set.files))
        }
        // GNU parallel, one file per job: what a user writes to "use all cores".
        let perFile = try best(\.seconds) {
            try checked(
                Spawn.shell(
                    """
                    parallel --will-cite -j \(cores) -a '\(list.path)' \
                    'md5sum {} && exiftool -j -n {} && vipsthumbnail {} -s 256 -o \(thumbs.path)/%s.jpg' >/dev/null
                    """
                )
            )
        }
        // The best batch form: each tool once over all the files.
        let batch = try best(\.seconds) {
            try checked(
                Spawn.shell(
                    """
                    xargs -d '\\n' -a '\(list.path)' md5sum >/dev/null && \
                    xargs -d '\\n' -a '\(list.path)' exiftool -j -n >/dev/null && \
                    xargs -d '\\n' -a '\(list.path)' vipsthumbnail -s 256 -o \(thumbs.path)/%s.jpg
                    """
                )
            )
        }
        var alone: [Double] = []
        var paired: [Double] = []
        for _ in 0..<max(7, repeats) {
            alone.append(
                try checked(Spawn.run([photomill, "inspect", "--kinds", "thumbnail", "--json"] + set.files)).cpuSeconds
            )
            paired.append(
                try checked(Spawn.run([photomill, "inspect", "--kinds", "thumbnail,similarity", "--json"] + set.files))
                    .cpuSeconds
            )
        }
        return Figures(
            oneWorker: one,
            twoWorkers: two.measured,
            twoWorkersSteady: two.steady,
            cpuPerPhoto: inspect.cpuSeconds / Double(set.files.count),
            shellPerFile: perFile,
            shellBatch: batch,
            thumbnailJob: median(alone) / Double(set.files.count),
            thumbnailAndSimilarityJob: median(paired) / Double(set.files.count),
            similarityCost: median(zip(paired, alone).map { $0 / $1 }) - 1
        )
    }

    private struct ClusterRun {
        var measured: Measured
        var steady: Double
    }

    private func cluster(workers: Int) throws -> ClusterRun {
        let catalog = scratch.appendingPathComponent("run-\(workers)-\(UUID().uuidString).sqlite")
        let measured = try checked(
            Spawn.run([
                photomill, "run", set.directory.path, "--workers", String(workers), "--slots", "1",
                "--kinds", "hash,metadata,thumbnail", "--no-exports", "--catalog", catalog.path,
            ])
        )
        // Every photo's tasks travel in one job: its attempts share a start (the lease) and an end.
        let row = try PythonSQLite.rows(
            catalog.path,
            "SELECT COUNT(DISTINCT photoId), MIN(startedAt), MAX(endedAt) FROM attempts WHERE outcome = 'done'"
        )
        guard let values = row.first, values.count == 3, let photos = Double(values[0]), let first = Double(values[1]),
            let last = Double(values[2])
        else {
            throw BenchError("no done attempts in \(catalog.path)")
        }
        return ClusterRun(measured: measured, steady: photos / (last - first))
    }

    /// The fastest of `repeats` runs.
    private func best<Run>(_ seconds: KeyPath<Run, Double>, _ body: () throws -> Run) throws -> Run {
        var fastest: Run?
        for _ in 0..<max(1, repeats) {
            let run = try body()
            if fastest == nil || run[keyPath: seconds] < fastest![keyPath: seconds] { fastest = run }
        }
        return fastest!
    }
}

func checked(_ measured: Measured) throws -> Measured {
    guard measured.status == 0 else { throw BenchError("a measured command failed (exit \(measured.status))") }
    return measured
}

/// The middle value (the mean of the two middle ones for an even count).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
