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

/// Bad input gets a clear refusal and loses nothing (docs/reliability.md, "Accidents";
/// docs/operations.md, "Exit codes"): another application's database, missing photo
/// folders, folders and files photomill may not read, catalogs it may not write, samples
/// over real photos, keys of the wrong kind. Permissions are tested as `nobody` when the
/// suite runs as root.
@Suite(.serialized, .ownThread) struct RefusalTests {
    /// Python's sqlite3 makes another application's database; no command changes a byte of it.
    @Test func everyCommandRefusesAnotherApplicationsDatabase() throws {
        let folder = try temporaryDirectory()
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let important = folder.appendingPathComponent("important.db")
        try Tool.output(
            "python3",
            [
                "-c",
                """
                import sqlite3, sys
                con = sqlite3.connect(sys.argv[1])
                con.execute('CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT)')
                con.execute("INSERT INTO accounts VALUES (1, 'alice')")
                con.commit()
                """, important.path,
            ]
        )
        let jpeg = folder.appendingPathComponent("photo.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 200)).write(to: jpeg)
        for file in [important, jpeg] {
            let before = try Tool.md5(file.path)
            let commands = [
                ["run", photos.path, "--workers", "1", "--no-exports"],
                ["coordinator", "--bind", "ipc://\(folder.path)/c.sock", "--no-exports", photos.path],
                ["status"], ["failed"], ["retry"], ["reprocess", "--all"], ["search", "word"], ["duplicates"],
                ["export", folder.appendingPathComponent("exports").path], ["forget", "--missing"],
                ["backup", folder.appendingPathComponent("copy.sqlite").path],
            ]
            for command in commands {
                let refused = try PhotomillBinary.run(command + ["--catalog", file.path])
                #expect(refused.status == 65, "\(command[0]) \(file.lastPathComponent): \(refused.stderr)")
                #expect(
                    refused.stderr.contains("not a photomill catalog") && refused.stderr.contains(file.path),
                    "\(refused.stderr)"
                )
                expectNoInternals(refused.stderr, command[0])
            }
            #expect(try Tool.md5(file.path) == before, "\(file.lastPathComponent) untouched")
        }
        #expect(try CatalogQuery.rows(important, "PRAGMA journal_mode") == [["delete"]])
        #expect(try CatalogQuery.rows(important, "SELECT name FROM sqlite_master") == [["accounts"]])
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == [
                "photos", "important.db", "photo.jpg",
            ],
            "no journal, lock, export or copy left beside them"
        )
    }

    @Test func aPhotoFolderThatIsMissingOrNotAFolderExits66BeforeAnythingStarts() throws {
        let folder = try temporaryDirectory()
        let file = folder.appendingPathComponent("notes.txt")
        try Data("x".utf8).write(to: file)
        let catalog = folder.appendingPathComponent("catalog.sqlite").path
        for root in [folder.appendingPathComponent("nonexistent").path, file.path] {
            for command in [["run"], ["coordinator", "--bind", "ipc://\(folder.path)/c.sock"]] {
                let refused = try PhotomillBinary.run(command + [root, "--catalog", catalog])
                #expect(
                    refused.status == 66 && refused.stderr.contains(root),
                    "\(command[0]) \(root): \(refused.stderr)"
                )
            }
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"],
            "no catalog, no exports"
        )
    }

    /// A folder and a file `nobody` may not read: failures that `failed`, `status` and the
    /// run's exit status count, naming them; readable again, they are read by the next run.
    @Test func unreadableFolderAndFileAreFailuresThatNameThem() throws {
        let folder = try temporaryDirectory()
        let photos = folder.appendingPathComponent("photos")
        #expect(
            try PhotomillBinary.run([
                "samples", photos.appendingPathComponent("ok").path, "--count", "2", "--photo-size", "64x48",
            ]).status == 0
        )
        #expect(
            try PhotomillBinary.run([
                "samples", photos.appendingPathComponent("private").path, "--count", "2", "--photo-size", "64x48",
            ]).status == 0
        )
        let privateFolder = photos.appendingPathComponent("private").path
        // A JPEG without an extension: before, a file the scan could not read was a failure
        // only when named like a photo.
        let secret = photos.appendingPathComponent("ok/IMG_0001").path
        try FileManager.default.moveItem(atPath: secret + ".jpg", toPath: secret)
        try Unprivileged.own(folder)
        chmod(privateFolder, 0o000)
        chmod(secret, 0o000)
        let catalog = folder.appendingPathComponent("catalog.sqlite").path
        let run = ["run", photos.path, "--workers", "1", "--kinds", "hash", "--no-exports", "--catalog", catalog]
        let first = try Unprivileged.run(run)
        #expect(first.status == 1, "\(first.stdout) \(first.stderr)")
        #expect(
            first.stdout.contains("  \(privateFolder): cannot list the folder: Permission denied")
                && first.stdout.contains("  \(secret): hash unreadable: cannot read: Permission denied"),
            "\(first.stdout)"
        )
        let failed = try PhotomillBinary.jsonLines(try Unprivileged.run(["failed", "--json", "--catalog", catalog]))
        #expect(
            failed.map { "\($0["path"]!) \($0["kind"] ?? "folder") \($0["errorClass"]!)" }
                == ["\(privateFolder) folder unreadable", "\(secret) hash unreadable"],
            "\(failed)"
        )
        let status =
            try JSONSerialization.jsonObject(
                with: Data(try Unprivileged.run(["status", "--json", "--catalog", catalog]).stdout.utf8)
            ) as? [String: Any]
        #expect(status?["unreadableFolders"] as? Int == 1)

        chmod(privateFolder, 0o755)
        chmod(secret, 0o644)
        let second = try Unprivileged.run(run)
        #expect(second.status == 0, "\(second.stdout) \(second.stderr)")
        #expect(try Unprivileged.run(["failed", "--catalog", catalog]).lines == ["0 failed tasks"])
        #expect(
            try CatalogQuery.count(URL(fileURLWithPath: catalog), "SELECT COUNT(*) FROM tasks WHERE state = 'done'")
                == 4
        )
    }

    /// A catalog in a folder `nobody` may not write: every reading command works, every
    /// writing one says what to do (74), and no message shows a library's internals.
    @Test func readingCommandsWorkOnACatalogTheyMayNotWrite() throws {
        let bench = try FaultBench(count: 6, seed: 81)
        #expect(
            try PhotomillBinary.run([
                "run", bench.photos.path, "--workers", "1", "--kinds", "hash,metadata",
                "--catalog", bench.catalog.path, "--no-exports",
            ]).status == 0
        )
        Unprivileged.readOnly(bench.directory)
        defer { chmod(bench.directory.path, 0o755) }
        let writable = try temporaryDirectory()
        try Unprivileged.own(writable)
        let catalog = ["--catalog", bench.catalog.path]
        for command in [
            ["status"], ["failed"], ["search", "--type", "photo"], ["duplicates"],
            ["forget", "--missing", "--dry-run"],
            ["export", writable.appendingPathComponent("exports").path],
            ["backup", writable.appendingPathComponent("copy.sqlite").path],
        ] {
            let outcome = try Unprivileged.run(command + catalog)
            #expect(outcome.status == 0, "\(command[0]): \(outcome.stderr)")
        }
        for command in [["retry"], ["run", bench.photos.path, "--workers", "1", "--no-exports"]] {
            let refused = try Unprivileged.run(command + catalog)
            #expect(
                refused.status == 74 && refused.stderr.contains(bench.catalog.path)
                    && refused.stderr.contains("run as"),
                "what to do: \(command[0]): \(refused.stderr)"
            )
            expectNoInternals(refused.stderr, command[0])
        }
        let exports = try Unprivileged.run([
            "run", bench.photos.path, "--workers", "1", "--catalog", writable.appendingPathComponent("c.sqlite").path,
            "--exports", bench.directory.appendingPathComponent("exports").path,
        ])
        #expect(exports.status == 73 && exports.stderr.contains("Permission denied"), "\(exports.stderr)")
        expectNoInternals(exports.stderr, "exports")
    }

    @Test func samplesNeverReplacesAFileWithoutForce() throws {
        let folder = try temporaryDirectory()
        let mine = folder.appendingPathComponent("IMG_0001.jpg")
        try Data("my only copy of this photo".utf8).write(to: mine)
        let before = try Tool.md5(mine.path)
        let refused = try PhotomillBinary.run(["samples", folder.path, "--count", "3", "--photo-size", "64x48"])
        #expect(
            refused.status == 73 && refused.stderr.contains("IMG_0001.jpg") && refused.stderr.contains("--force"),
            "\(refused.stderr)"
        )
        #expect(try Tool.md5(mine.path) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["IMG_0001.jpg"],
            "nothing else written"
        )
        let forced = try PhotomillBinary.run([
            "samples", folder.path, "--count", "3", "--photo-size", "64x48", "--force",
        ])
        #expect(forced.status == 0)
        #expect(try Data(contentsOf: mine).prefix(2) == Data([0xFF, 0xD8]), "replaced by a JPEG")
    }

    @Test func keysOfTheWrongKindAreNamedAsSuch() throws {
        let folder = try temporaryDirectory()
        let name = folder.appendingPathComponent("k").path
        #expect(try PhotomillBinary.run(["keys", "generate", "--out", name]).status == 0)
        let cases: [([String], String)] = [
            (
                ["worker", "--connect", "tcp://127.0.0.1:1", "--key", name + ".pub", "--server-key", name + ".pub"],
                "this is a public key"
            ),
            (
                ["worker", "--connect", "tcp://127.0.0.1:1", "--key", name + ".key", "--server-key", name + ".key"],
                "this is a secret key"
            ),
            (
                [
                    "coordinator", "--bind", "tcp://127.0.0.1:1", "--key", name + ".pub", "--allow", name + ".pub",
                    folder.path,
                ], "this is a public key"
            ),
        ]
        for (arguments, words) in cases {
            let refused = try PhotomillBinary.run(arguments)
            #expect(refused.status == 64 && refused.stderr.contains(words), "\(arguments): \(refused.stderr)")
        }
    }
}
