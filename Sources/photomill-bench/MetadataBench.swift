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

/// The metadata kind alone: the CPU time `photomill inspect --kinds metadata` spends per
/// file (the whole run less a run over the first file alone, which is the process's
/// start-up, over the files but one), and its peak RSS. Any folder: every regular file in
/// it, photos, RAW and videos alike (a file without metadata fails and is counted the same).
struct MetadataBench {
    var photomill: String
    var folder: String
    var repeats: Int

    struct Figures {
        var files: Int
        var cpuPerFile: Double
        var peakRSS: Double
    }

    func run() throws -> Figures {
        let url = URL(fileURLWithPath: folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            .map { url.appendingPathComponent($0).path }
            .filter {
                (try? FileManager.default.attributesOfItem(atPath: $0)[.type] as? FileAttributeType) == .typeRegular
            }
        guard files.count >= 2 else { throw BenchError("\(folder): fewer than two files to measure metadata on") }
        var all: Measured?
        var one: Measured?
        for _ in 0..<max(1, repeats) {
            // Exit 1 is a file without metadata (a broken one): measured all the same.
            let whole = try Spawn.run([photomill, "inspect", "--json", "--kinds", "metadata"] + files)
            let first = try Spawn.run([photomill, "inspect", "--json", "--kinds", "metadata", files[0]])
            guard whole.status <= 1, first.status <= 1 else {
                throw BenchError("photomill inspect failed (exit \(whole.status))")
            }
            if all == nil || whole.cpuSeconds < all!.cpuSeconds { all = whole }
            if one == nil || first.cpuSeconds < one!.cpuSeconds { one = first }
        }
        return Figures(
            files: files.count,
            cpuPerFile: max(0, all!.cpuSeconds - one!.cpuSeconds) / Double(files.count - 1),
            peakRSS: all!.peakRSS
        )
    }
}

extension Report {
    static func metadata(_ f: MetadataBench.Figures, folder: String) {
        print("\nmetadata alone: \(f.files) files of \(folder)")
        print(
            row(
                "inspect --kinds metadata, CPU per file (start-up taken out)",
                String(format: "%.0f µs", f.cpuPerFile * 1e6)
            )
        )
        print(row("peak RSS of that inspect", String(format: "%.1f MB", f.peakRSS)))
    }
}
