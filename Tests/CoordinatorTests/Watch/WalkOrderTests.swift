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

import Catalog
import Foundation
import PhotomillCore
import PhotomillTestSupport
import Testing

@testable import Coordinator

/// The start-up walk lists each folder through its descriptor and goes in the order of the
/// paths' bytes, beside the catalog's rows in the same order (`Scanner.CatalogOrder`).
/// Expected values come from Python (os.lstat, and `sorted` over bytes, which is SQLite's
/// BINARY order) over a tree of hostile names made by Python itself.
@Suite struct WalkOrderTests {
    /// Every path under the tree, depth-first as the walk lists it, with its lstat fields.
    static func walked(_ folder: String, into lines: inout [String], files: inout [String]) {
        guard case .success(let entries) = Scanner.entries(ofFolder: folder) else { return }
        for entry in entries {
            let path = Scanner.join(folder, entry.name)
            let hex = PathBytes.bytes(path).map { String(format: "%02x", $0) }.joined()
            switch entry.info {
            case .success(let info):
                lines.append(
                    "\(hex) \(info.st_mode) \(info.st_size) \(FileStamp(info).mtimeNs) \(Scanner.Found.ctimeNs(info)) \(info.st_ino)"
                )
                if entry.isFolder { walked(path, into: &lines, files: &files) } else { files.append(hex) }
            case .failure(let error):
                lines.append("\(hex) errno \(error.code)")
                files.append(hex)
            }
        }
    }

    @Test func theWalkListsEveryEntryWithItsLstatInTheOrderOfThePathsBytes() throws {
        let root = try temporaryDirectory("walk-order").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Names whose order by name differs from the order of their paths ("a" < "a-b" but
        // "a-b" < "a/…"), bytes that are not UTF-8, the escape range's own characters,
        // NFC and NFD forms, a link to a folder, a broken link, a FIFO, an empty folder.
        let script = #"""
            import os, stat, sys
            root = os.fsencode(sys.argv[1])
            def make(path, data=b"x"):
                with open(os.path.join(root, path), "wb") as f: f.write(data)
            for d in [b"a", b"a/sub", b"a-b", b"a.b", b"a b", b"caf\xc3\xa9", b"cafe\xcc\x81", b"bad\xff\xfename", b"empty", b"\xf4\x8f\xbc\x80"]:
                os.makedirs(os.path.join(root, d), exist_ok=True)
            for f in [b"a/sub/z.jpg", b"a/x.jpg", b"a/\xe9.jpg", b"a-b/y.jpg", b"a.b/q.jpg", b"a b/r.jpg", b"a0", b"a.jpg",
                      b"caf\xc3\xa9/1.jpg", b"cafe\xcc\x81/2.jpg", b"bad\xff\xfename/\x80.jpg", b"\xf4\x8f\xbc\x80/w.jpg",
                      b".hidden.jpg", b"new\nline.jpg"]:
                make(f, f * 3)
            os.symlink(b"a", os.path.join(root, b"link-to-a"))
            os.symlink(b"nowhere", os.path.join(root, b"broken"))
            os.mkfifo(os.path.join(root, b"fifo"))
            # photomill's String of a path (PathBytes): each byte that is not UTF-8, and each
            # byte of a character from U+10FF00, is U+10FF00 + the byte; SQLite orders the
            # UTF-8 of that String.
            def catalog_order(path):
                text = []
                for ch in path.decode("utf-8", "surrogateescape"):
                    if 0xDC80 <= ord(ch) <= 0xDCFF: text.append(chr(0x10FF00 + ord(ch) - 0xDC00))
                    elif ord(ch) >= 0x10FF00: text.extend(chr(0x10FF00 + b) for b in ch.encode("utf-8"))
                    else: text.append(ch)
                return "".join(text).encode("utf-8")
            paths = []
            for folder, dirs, files in os.walk(root):
                for name in dirs + files:
                    paths.append(os.path.join(folder, name))
            # Every entry, a folder just before what it holds (its path with a "/" after it).
            def walk_order(path):
                return catalog_order(path + b"/" if stat.S_ISDIR(os.lstat(path).st_mode) else path)
            for path in sorted(paths, key=walk_order):
                info = os.lstat(path)
                print("E", path.hex(), info.st_mode, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
            # What the catalog may hold (anything but a folder), in the catalog's order.
            for path in sorted((p for p in paths if not stat.S_ISDIR(os.lstat(p).st_mode)), key=catalog_order):
                print("F", path.hex())
            """#
        let expected = try Tool.output("python3", ["-c", script, root]).split(separator: "\n").map(String.init)
        var lines: [String] = []
        var files: [String] = []
        Self.walked(root, into: &lines, files: &files)
        let entries = expected.filter { $0.hasPrefix("E ") }.map { String($0.dropFirst(2)) }
        #expect(entries.count == 27)
        #expect(lines == entries)
        // The files come in the catalog's order, whatever the folders between them.
        #expect(files == expected.filter { $0.hasPrefix("F ") }.map { String($0.dropFirst(2)) })
        // What cannot be listed says why, as Python's os.listdir does.
        let errors = try Tool.output(
            "python3",
            [
                "-c",
                """
                import os, sys
                for path in sys.argv[1:]:
                    try: os.listdir(path)
                    except OSError as e: print(e.errno)
                """, root + "/a.jpg", root + "/gone", root + "/broken",
            ]
        ).split(separator: "\n").map { Int32($0) }
        let ours = [root + "/a.jpg", root + "/gone", root + "/broken"].map { path -> Int32? in
            if case .failure(let error) = Scanner.entries(ofFolder: path) { error.code } else { nil }
        }
        #expect(ours == errors)
    }

    @Test func theCatalogsRowsComeBesideTheWalkAndThosePassedAreTheOnesNotFound() throws {
        let folder = try temporaryDirectory("walk-order-catalog")
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = try Catalog(path: folder.appendingPathComponent("catalog.sqlite").path)
        // 2,500 photos (more than two pieces), names that sort other than their paths, a name
        // with a byte that is not UTF-8, and one missing photo.
        var paths = (0..<2_500).map { "/lib/f\($0 % 7)/IMG_\($0).jpg" }
        paths += [
            "/lib/a.jpg", "/lib/a-b/c.jpg", "/lib/a/c.jpg", "/lib/x" + PathBytes.string([0xff]) + ".jpg",
            "/libx/outside.jpg",
        ]
        _ = try catalog.record(
            paths.map { ScannedFile(path: $0, size: 10, mtimeNs: 1, recognition: .media(.jpeg)) },
            kinds: [.hash],
            now: 1
        )
        _ = try catalog.markGone(["/lib/f3/IMG_3.jpg"], now: 2)
        let under = paths.filter { $0.hasPrefix("/lib/") }
        // SQLite's order is that of the bytes: Python's sorted() over the UTF-8 of each path.
        let sorted = try Tool.output(
            "python3",
            [
                "-c",
                """
                import os, sys
                for p in sorted(os.fsencode(a) for a in sys.argv[1:]): print(p.hex())
                """,
            ] + under
        ).split(separator: "\n")
            .map { hex in
                String(
                    decoding: stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
                        let start = hex.index(hex.startIndex, offsetBy: offset)
                        return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
                    },
                    as: UTF8.self
                )
            }
        #expect(sorted.count == under.count)
        let lastId = try catalog.lastPhotoId()
        var order = Scanner.CatalogOrder(catalog: catalog, folder: "/lib", lastId: lastId)
        // The walk finds every other path, in order, and one that is not in the catalog.
        var found: [Int64] = []
        for (index, path) in sorted.enumerated() where index % 2 == 0 {
            guard case .photo(let photo) = try order.photo(at: path) else {
                Issue.record("no row at \(path)")
                continue
            }
            #expect(photo.stamp == FileStamp(size: 10, mtimeNs: 1))
            found.append(photo.id)
        }
        if case .photo = try order.photo(at: sorted.last! + "z") { Issue.record("a path the catalog lacks was found") }
        if case .outOfOrder = try order.photo(at: sorted[0]) {
        } else {
            Issue.record("a path asked again is not out of order")
        }
        try order.finish()
        let known = try catalog.knownFiles(under)
        let notFound = Set(under.enumerated().filter { !found.contains(known.photos[$0.element]!.id) }.map(\.element))
        let expectedPassed = Set(notFound.filter { !known.photos[$0]!.missing }.map { known.photos[$0]!.id })
        #expect(Set(order.passed) == expectedPassed)
        #expect(order.passed.count == expectedPassed.count)
        #expect(found.count == (under.count + 1) / 2)
        var again = Scanner.CatalogOrder(catalog: catalog, folder: "/lib", lastId: lastId)
        try again.finish()
        #expect(Set(again.passed) == Set(known.photos.values.filter { !$0.missing }.map(\.id)))
        // Every photo has its hash task (`record` made them), none a metadata task; a file
        // named as a photo that is not one has tasks of every kind, failed.
        _ = try catalog.record(
            [
                ScannedFile(
                    path: "/lib/broken.jpg",
                    size: 3,
                    mtimeNs: 1,
                    recognition: .failed(.notAnImage, message: "no")
                )
            ],
            kinds: [.hash, .metadata],
            now: 3
        )
        #expect(try catalog.hasEveryTask(of: [.hash]))
        #expect(try !catalog.hasEveryTask(of: [.hash, .metadata]))
        // The missing photo gets none: 2,503.
        #expect(try catalog.ensureTasks(under: "/lib", kinds: [.hash, .metadata], now: 4) == under.count - 1)
        #expect(try !catalog.hasEveryTask(of: [.metadata]))
        #expect(try catalog.ensureTasks(under: "/libx", kinds: [.metadata], now: 4) == 1)
        #expect(try catalog.hasEveryTask(of: [.hash, .metadata]))
    }
}
