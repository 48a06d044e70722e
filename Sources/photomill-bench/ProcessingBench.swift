import Foundation

/// hash + metadata + thumbnail over one set of photos, five ways: photomill with 1 and 2
/// local workers, the processors' own CPU cost, and the two shell forms a user would write.
struct ProcessingBench {
    var photomill: String
    var set: PhotoSet
    var scratch: URL
    var cores: Int
    var repeats: Int

    struct Figures {
        var oneWorker: Measured
        var twoWorkers: Measured
        /// CPU seconds per photo of `photomill inspect` (no messaging, no catalog).
        var cpuPerPhoto: Double
        var shellPerFile: Measured
        var shellBatch: Measured
    }

    func run() throws -> Figures {
        let list = scratch.appendingPathComponent("files.txt")
        try set.files.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let thumbs = scratch.appendingPathComponent("shell-thumbs")
        try FileManager.default.createDirectory(at: thumbs, withIntermediateDirectories: true)
        let one = try best { try cluster(workers: 1) }
        let two = try best { try cluster(workers: 2) }
        let inspect = try best { try checked(Spawn.run([photomill, "inspect", "--kinds", "hash,metadata,thumbnail", "--json"] + set.files)) }
        // GNU parallel, one file per job: what a user writes to "use all cores".
        let perFile = try best {
            try checked(Spawn.shell("""
                parallel --will-cite -j \(cores) -a '\(list.path)' \
                'md5sum {} && exiftool -j -n {} && vipsthumbnail {} -s 256 -o \(thumbs.path)/%s.jpg' >/dev/null
                """))
        }
        // The best batch form: each tool once over all the files.
        let batch = try best {
            try checked(Spawn.shell("""
                xargs -d '\\n' -a '\(list.path)' md5sum >/dev/null && \
                xargs -d '\\n' -a '\(list.path)' exiftool -j -n >/dev/null && \
                xargs -d '\\n' -a '\(list.path)' vipsthumbnail -s 256 -o \(thumbs.path)/%s.jpg
                """))
        }
        return Figures(oneWorker: one, twoWorkers: two, cpuPerPhoto: inspect.cpuSeconds / Double(set.files.count),
                       shellPerFile: perFile, shellBatch: batch)
    }

    private func cluster(workers: Int) throws -> Measured {
        let catalog = scratch.appendingPathComponent("run-\(workers)-\(UUID().uuidString).sqlite")
        return try checked(Spawn.run([photomill, "run", set.directory.path, "--workers", String(workers), "--slots", "1",
                                      "--kinds", "hash,metadata,thumbnail", "--no-exports", "--catalog", catalog.path]))
    }

    /// The fastest of `repeats` runs.
    private func best(_ body: () throws -> Measured) throws -> Measured {
        var fastest: Measured?
        for _ in 0..<max(1, repeats) {
            let measured = try body()
            if fastest == nil || measured.seconds < fastest!.seconds { fastest = measured }
        }
        return fastest!
    }
}

func checked(_ measured: Measured) throws -> Measured {
    guard measured.status == 0 else { throw BenchError("a measured command failed (exit \(measured.status))") }
    return measured
}
