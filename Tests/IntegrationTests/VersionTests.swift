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
import MillProtocol
import PhotomillTestSupport
import Testing

/// `photomill --version` and the version each worker reports, against what other tools
/// say: git for the commit, each library's own command or another binding of it (Debian's
/// Python modules), dpkg's database, and ldd for the file the loader picks.
@Suite(.ownThread) struct VersionTests {
    /// The commit git says is checked out where this file (and the binary under test)
    /// comes from; nil outside a git checkout (a source tarball), where the build cannot know it.
    static let head: String? = {
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? Tool.output("git", ["-C", checkout.path, "rev-parse", "HEAD"]))?.trimmingCharacters(
            in: .whitespacesAndNewlines
        )
    }()

    static func report() throws -> [String: String] {
        let outcome = try PhotomillBinary.run(["--version"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        // "name version…": the first word names the line.
        return Dictionary(
            outcome.lines.map { line in
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }
        ) { first, _ in first }
    }

    /// The upstream version of the Debian package that holds `file`: 0.20.2 of 0.20.2-2.1+deb12u2.
    static func debianVersion(ofPackageHolding file: String) throws -> String {
        let package = try Tool.output("dpkg-query", ["-S", file]).split(separator: ":").first.map(String.init) ?? ""
        let version = try Tool.output("dpkg-query", ["-W", "-f", "${Version}", package])
        return String(version.split(separator: "-").first ?? "").replacingOccurrences(
            of: #"^\d+:"#,
            with: "",
            options: .regularExpression
        )
    }

    /// What `ldd` resolves for the library whose soname starts with `prefix`, symlinks resolved.
    static func linkedFile(_ prefix: String) throws -> String? {
        let line = try Tool.output("ldd", [PhotomillBinary.url.path]).split(separator: "\n").first {
            $0.contains(prefix)
        }
        guard let path = line?.split(separator: " ").first(where: { $0.hasPrefix("/") }) else { return nil }
        return URL(fileURLWithPath: String(path)).resolvingSymlinksInPath().path
    }

    @Test func versionNamesTheCommitAndEachLibraryAsItsOwnToolsSayIt() throws {
        let report = try Self.report()
        #expect(report["photomill"]?.wholeMatch(of: /\d+\.\d+\.\d+/) != nil, "\(report)")
        if let head = Self.head {
            #expect(
                report["commit"]?.hasPrefix(head) == true,
                "built from \(report["commit"] ?? "?"), checked out \(head)"
            )
        } else {
            #expect(report["commit"] == "unknown (built outside a git checkout)")
        }

        // Other bindings of the same shared libraries: Debian's python3-zmq and sqlite3 module.
        let python = try Tool.output(
            "/usr/bin/python3",
            ["-c", "import sqlite3, zmq; print(zmq.zmq_version()); print(sqlite3.sqlite_version)"]
        )
        .split(separator: "\n").map(String.init)
        #expect(report["libzmq"] == python.first)
        #expect(report["SQLite"] == python.last)
        // The libraries' own commands: "vips-8.14.1", "tesseract 5.3.0".
        #expect(
            "vips-" + (report["libvips"] ?? "?")
                == (try Tool.output("vips", ["--version"])).trimmingCharacters(in: .whitespacesAndNewlines)
        )
        let tesseract = try Tool.output("tesseract", ["--version"]).split(separator: "\n").first.map(String.init)
        #expect("tesseract " + (report["tesseract"] ?? "?") == tesseract)
        // dpkg's record of the package that holds the LibRaw the binary loads.
        let libRaw = try #require(try Self.linkedFile("libraw_r.so"))
        #expect(report["LibRaw"] == (try Self.debianVersion(ofPackageHolding: libRaw)))
        // `ffmpeg -version`: "ffmpeg version 5.1.9-0+deb12u1 …", then "libavformat    59. 27.100 / 59. 27.100"
        // (the second figure is the library ffmpeg runs with).
        let ffmpeg = try Tool.output("ffmpeg", ["-hide_banner", "-version"]).split(separator: "\n").map(String.init)
        var expected = ffmpeg.first?.split(separator: " ").dropFirst(2).first.map(String.init) ?? "?"
        let libraries = ["libavformat", "libavcodec", "libswscale", "libavutil"].map { name in
            let line = ffmpeg.first { $0.hasPrefix(name + " ") } ?? ""
            return name + " " + (line.split(separator: "/").last ?? "").replacingOccurrences(of: " ", with: "")
        }
        expected += " (" + libraries.joined(separator: ", ") + ")"
        #expect(report["FFmpeg"] == expected)
        // exiv2's own command: "exiv2 0.27.6".
        let exiv2 = try Tool.output("exiv2", ["--version"]).split(separator: "\n").first.map(String.init)
        #expect("exiv2 " + (report["exiv2"] ?? "?") == exiv2)
        // libexif cannot say: the line names the file ldd finds.
        let exif = try #require(try Self.linkedFile("libexif.so"))
        #expect(report["libexif"] == "unknown (libexif has no version function; loaded from \(exif))")
    }

    /// The version a worker's READY carries reaches the catalog and `status`: a real worker
    /// reports its build (the version and this checkout's commit), a hand-made peer what
    /// it said.
    @Test func statusShowsEachWorkersVersion() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let photos = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let catalog = directory.appendingPathComponent("catalog.sqlite")
        let endpoint = "ipc://\(directory.path)/coordinator.sock"
        let coordinator = try BackgroundProcess([
            "coordinator", "--bind", endpoint, "--catalog", catalog.path, "--no-exports",
            "--kinds", "hash", photos.path,
        ])
        defer { coordinator.signal(SIGKILL) }
        _ = try coordinator.boundEndpoint()
        let worker = try BackgroundProcess(["worker", "--connect", endpoint, "--kinds", "hash", "--slots", "1"])
        defer { worker.signal(SIGKILL) }
        let peer = try RawPeer(dealerTo: endpoint, id: "version-peer")
        // Heartbeats a minute apart: the peer stays for three minutes without a word, however
        // long `status` takes to start on a busy machine (at 1 s, run 4 of five under load saw
        // it dropped between its HEARTBEAT and the look).
        try peer.send(RawPeer.ready(workerId: "version-peer", heartbeatMs: 60_000))

        let report = try Self.report()
        let build = "photomill/\(report["photomill"] ?? "?")" + (Self.head.map { "+" + $0.prefix(12) } ?? "")
        let stored = "SELECT id, softwareVersion FROM workers WHERE state = 'connected' ORDER BY id"
        #expect(
            eventually(seconds: 30) {
                try? peer.send(.heartbeat())
                return (try? CatalogQuery.rows(catalog, stored))?.count == 2
            },
            "\(coordinator.stderr)"
        )
        let rows = try CatalogQuery.rows(catalog, stored)
        let real = try #require(rows.first { $0[0] != "version-peer" })
        // A build with uncommitted changes says so after the commit.
        #expect(real[1] == build || real[1] == build + ".dirty", "\(real)")
        #expect(rows.first { $0[0] == "version-peer" }?[1] == "test/1")

        try peer.send(.heartbeat())
        let text = try PhotomillBinary.run(["status", "--catalog", catalog.path])
        let header = try #require(text.lines.first { $0.hasPrefix("host ") }, "\(text.stdout)")
        #expect(header.contains(" version ") && header.hasSuffix(" worker"))
        #expect(text.lines.contains { $0.hasSuffix(" \(real[1])  \(real[0])") }, "\(text.stdout)")
        #expect(text.lines.contains { $0.contains(" test/1 ") && $0.hasSuffix(" version-peer") }, "\(text.stdout)")
        try peer.send(.heartbeat())
        let json = try JSONSerialization.jsonObject(
            with: Data(try PhotomillBinary.run(["status", "--json", "--catalog", catalog.path]).stdout.utf8)
        )
        let workers = try #require((json as? [String: Any])?["workers"] as? [[String: Any]])
        #expect(Set(workers.compactMap { $0["softwareVersion"] as? String }) == [real[1], "test/1"], "\(workers)")
    }
}
