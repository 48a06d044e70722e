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
import PhotomillTestSupport
import Testing

/// Storage that fails under photomill (docs/reliability.md): a full export disk, a
/// catalog on a read-only file system, a catalog disk that fills mid-run. Real mounts
/// (tmpfs, read-only bind mounts), so these tests need root and skip without it: as root,
/// chmod does not stop a write.
@Suite(.serialized, .ownThread) struct StorageFaultTests {
    static let canMount = getuid() == 0 && Mount.works

    /// Exports to a 48 KiB tmpfs: writes fail with ENOSPC, each failure is logged naming
    /// the file and the cause, no temporary file is left, `run` says so and exits 1, and
    /// the catalog still has every result.
    @Test(.enabled(if: canMount, "needs root to mount a tmpfs")) func fullExportDisk() throws {
        let bench = try FaultBench(count: 60, seed: 51, photoSize: "320x240")
        let exports = bench.directory.appendingPathComponent("exports")
        let mount = try Mount.tmpfs(at: exports, size: "48k")
        defer { mount.unmount() }
        let outcome = try PhotomillBinary.run([
            "run", bench.photos.path, "--workers", "2", "--kinds", "hash,metadata,thumbnail",
            "--catalog", bench.catalog.path, "--exports", exports.path,
        ])
        #expect(outcome.status == 1, "\(outcome.stdout) \(outcome.stderr)")
        #expect(
            outcome.stderr.contains("No space left on device") && outcome.stderr.contains(exports.path),
            "\(outcome.stderr)"
        )
        #expect(outcome.stderr.contains("could not be written"), "\(outcome.stderr)")
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: exports.path).filter {
            $0.hasSuffix(".tmp")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
        let ledger = try bench.ledger()
        ledger.expectNothingLost("export disk full")
        FaultReport.record(
            "export disk full (48 KiB tmpfs)",
            injected: 1,
            affected: 0,
            lost: ledger.lost,
            twice: ledger.committedTwice,
            recovery: nil,
            note: "every task done; export failures logged, run exits 1"
        )
    }

    /// A catalog on a read-only file system: `run` stops at once with a message naming
    /// the catalog, exit status 74 (EX_IOERR), no crash, nothing written.
    @Test(.enabled(if: canMount, "needs root to bind-mount read-only")) func readOnlyCatalog() throws {
        let bench = try FaultBench(count: 10, seed: 52)
        _ = try PhotomillBinary.run([
            "run", bench.photos.path, "--workers", "1", "--kinds", "hash", "--catalog",
            bench.catalog.path, "--no-exports",
        ])
        let before = try bench.ledger()
        #expect(before.tasks == bench.files.count && before.lost == 0, "\(before)")
        let readOnly = bench.directory.appendingPathComponent("read-only")
        let mount = try Mount.readOnlyBind(bench.directory, at: readOnly)
        defer { mount.unmount() }
        let catalog = readOnly.appendingPathComponent("catalog.sqlite").path
        let run = try BackgroundProcess([
            "run", readOnly.appendingPathComponent("photos").path, "--workers", "1",
            "--kinds", "hash,metadata", "--catalog", catalog, "--no-exports",
        ])
        let status = run.wait(seconds: 60)
        #expect(status == 74, "\(run.stderr)")
        #expect(!run.wasSignalled)
        #expect(run.stderr.contains(catalog) && run.stderr.lowercased().contains("read"), "\(run.stderr)")
        mount.unmount()
        #expect(try bench.ledger().tasks == before.tasks, "nothing written")
        FaultReport.record(
            "read-only catalog",
            injected: 1,
            affected: 0,
            lost: 0,
            twice: 0,
            recovery: nil,
            note: "clean stop, exit 74, message names the catalog"
        )
    }

    /// The catalog's disk fills mid-run: the coordinator stops with a message naming the
    /// catalog (no transaction half-applied); with space again, a new run completes the
    /// work with nothing lost or committed twice.
    @Test(.enabled(if: canMount, "needs root to mount a tmpfs")) func catalogDiskFillsMidRun() throws {
        let bench = try FaultBench(count: 100, seed: 53, photoSize: "320x240", copies: 2)
        let folder = bench.directory.appendingPathComponent("catalog-disk")
        let mount = try Mount.tmpfs(at: folder, size: "1m")
        defer { mount.unmount() }
        var bench2 = bench
        bench2.catalog = folder.appendingPathComponent("catalog.sqlite")
        let arguments = [
            "run", bench.photos.path, "--workers", "2", "--kinds", "hash,metadata,thumbnail", "--catalog",
            bench2.catalog.path, "--no-exports",
        ]
        let first = try BackgroundProcess(arguments)
        #expect(first.wait(seconds: 240) == 74, "\(first.stderr)")
        #expect(first.stderr.contains(bench2.catalog.path) && first.stderr.contains("full"), "\(first.stderr)")
        let doneAtStop = bench2.doneAttempts
        #expect(bench2.unfinished > 0, "the disk filled mid-run")

        let grown = Stopwatch()
        try mount.resize("64m")
        let second = try PhotomillBinary.run(arguments)
        #expect(second.status == 1, "broken samples fail: \(second.stdout) \(second.stderr)")
        let ledger = try bench2.ledger()
        ledger.expectNothingLost("catalog disk full")
        FaultReport.record(
            "catalog disk full mid-run (1 MiB tmpfs)",
            injected: 1,
            affected: ledger.tasks - doneAtStop,
            lost: ledger.lost,
            twice: ledger.committedTwice,
            recovery: grown.seconds,
            note: "clean stop naming the catalog; the second run (time shown) completes"
        )
    }
}

/// A mount made for one test, undone by `unmount()`.
struct Mount {
    let path: String

    static var works: Bool {
        guard let directory = try? temporaryDirectory(), let mount = try? tmpfs(at: directory, size: "16k") else {
            return false
        }
        mount.unmount()
        return true
    }

    static func tmpfs(at url: URL, size: String) throws -> Mount {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try run(["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", url.path])
        return Mount(path: url.path)
    }

    static func readOnlyBind(_ source: URL, at url: URL) throws -> Mount {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try run(["--bind", source.path, url.path])
        let mount = Mount(path: url.path)
        do {
            try run(["-o", "remount,bind,ro", url.path])
        } catch {
            mount.unmount()
            throw error
        }
        return mount
    }

    func resize(_ size: String) throws {
        try Self.run(["-o", "remount,size=\(size)", path])
    }

    func unmount() {
        _ = try? Self.run(["-l", path], tool: "/bin/umount")
    }

    private static func run(_ arguments: [String], tool: String = "/bin/mount") throws {
        try Tool.output(tool, arguments)
    }
}
