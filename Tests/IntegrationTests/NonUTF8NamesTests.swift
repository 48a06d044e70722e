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

/// File names are bytes (issue 14, item 5): names that are not UTF-8 are processed, kept
/// apart, opened again exactly, and shown as `\xNN`. The files are made, hashed and read
/// back by Python with byte names (hashlib, sqlite3), independently of photomill's own
/// mapping, which only the escape rule documented in docs/catalog.md ties to.
@Suite(.ownThread) struct NonUTF8NamesTests {
    @Test func latin1NamesAreProcessedKeptApartAndShownEscaped() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pm-bytes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let samples = directory.appendingPathComponent("samples")
        let photos = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        #expect(
            try PhotomillBinary.run(["samples", samples.path, "--count", "8", "--photo-size", "64x48"]).status == 0
        )
        // café in Latin-1 and in UTF-8 (one content), and cafè in Latin-1 (another).
        _ = try Tool.output(
            "python3",
            [
                "-c",
                """
                import glob, os, shutil, sys
                jpegs = sorted(glob.glob(os.path.join(sys.argv[1], '*.jpg')))
                out = os.fsencode(sys.argv[2])
                shutil.copy(jpegs[0], out + b'/caf\\xe9.jpg')
                shutil.copy(jpegs[1], out + b'/caf\\xe8.jpg')
                shutil.copy(jpegs[0], out + '/café.jpg'.encode())
                """, samples.path, photos.path,
            ]
        )
        let catalog = directory.appendingPathComponent("catalog.sqlite")
        let arguments = [
            "run", photos.path, "--workers", "1", "--kinds", "hash,metadata", "--catalog", catalog.path, "--no-exports",
            "--no-http",
        ]
        let first = try PhotomillBinary.run(arguments)
        #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
        #expect(first.stdout.contains("3 new"), "\(first.stdout)")

        // Each row's path, its escapes undone by the documented rule, names a file whose
        // MD5 (hashlib) is the row's.
        let checked = try Tool.output(
            "python3",
            [
                "-c",
                """
                import hashlib, sqlite3, sys
                rows = sqlite3.connect(sys.argv[1]).execute('SELECT path, md5 FROM photos ORDER BY path').fetchall()
                def raw(path):
                    out = b''
                    for ch in path:
                        out += bytes([ord(ch) - 0x10FF00]) if ord(ch) >= 0x10FF00 else ch.encode()
                    return out
                for path, md5 in rows:
                    name = raw(path).rsplit(b'/', 1)[1]
                    ok = hashlib.md5(open(raw(path), 'rb').read()).hexdigest() == md5
                    print(name.hex(), 'ok' if ok else 'WRONG')
                """, catalog.path,
            ]
        )
        #expect(
            checked.split(separator: "\n").sorted() == [
                "636166c3a92e6a7067 ok", "636166e82e6a7067 ok", "636166e92e6a7067 ok",
            ],
            "three rows, each hashed from its own bytes: \(checked)"
        )

        // Opened again exactly: a second run finds all three unchanged.
        let second = try PhotomillBinary.run(arguments)
        #expect(second.stdout.contains("0 new, 0 changed, 3 unchanged"), "\(second.stdout)")

        // Shown escaped: text, and JSON whose string decodes to a backslash-x.
        let search = try PhotomillBinary.run(["search", "--type", "photo", "--catalog", catalog.path])
        #expect(
            search.stdout.contains("/caf\\xE9.jpg") && search.stdout.contains("/caf\\xE8.jpg")
                && search.stdout.contains("/café.jpg"),
            "\(search.stdout)"
        )
        let duplicates = try PhotomillBinary.run(["duplicates", "--json", "--catalog", catalog.path])
        let group = try #require(
            try JSONSerialization.jsonObject(with: Data(duplicates.stdout.utf8)) as? [String: Any],
            "\(duplicates.stdout)"
        )
        #expect(
            Set(group["paths"] as? [String] ?? []) == [photos.path + "/caf\\xE9.jpg", photos.path + "/café.jpg"],
            "the Latin-1 and the UTF-8 café are two files of one content"
        )
    }
}
