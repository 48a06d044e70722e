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
import Testing

@testable import PhotomillCore

/// `.photomillignore` is gitignore's syntax: what photomill excludes is what git ignores
/// for the same files (`git check-ignore --no-index` over the same tree and patterns is
/// the reference), and `--exclude` overrides the files.
@Suite struct ExclusionsTests {
    /// Seeded trees and patterns, each judged by git and by photomill: the same paths excluded.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func agreesWithGitCheckIgnore(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pm-exclusions-\(getpid())-\(seed)")
            .path
        try? FileManager.default.removeItem(atPath: root)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let names = ["a", "b", "img", "x y", "2019"]
        let extensions = ["", ".jpg", ".JPG", ".tmp", ".heic"]
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }

        // A tree: folders up to three deep, files in them.
        var folders = [""]
        var files: [String] = []
        for _ in 0..<12 {
            let parent = pick(folders)
            guard parent.split(separator: "/").count < 3 else { continue }
            let folder = parent.isEmpty ? pick(names) : parent + "/" + pick(names)
            if !folders.contains(folder) && !files.contains(folder) { folders.append(folder) }
        }
        for _ in 0..<60 {
            let file = (pick(folders).isEmpty ? "" : pick(folders) + "/") + pick(names) + pick(extensions)
            let path = file.hasPrefix("/") ? String(file.dropFirst()) : file
            if !folders.contains(path) && !files.contains(path) { files.append(path) }
        }
        files = files.filter { file in !folders.contains { $0.hasPrefix(file + "/") } }
        for folder in folders {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for file in files where !folders.contains(where: { $0 == file }) {
            FileManager.default.createFile(atPath: root + "/" + file, contents: Data())
        }

        // Patterns of every form the syntax has, in the root and in some folders.
        let segments = ["a", "b", "img*", "*.jpg", "*.tmp", "?", "[ab]*", "[!a]*", "**", "x y", "2019", "*"]
        func pattern() -> String {
            var parts = (0..<Int(1 + random.next() % 3)).map { _ in pick(segments) }
            if parts == ["**"] { parts = ["**", "*.jpg"] }
            var text = parts.joined(separator: "/")
            if random.next() % 5 == 0 { text = "/" + text }
            if random.next() % 6 == 0 { text += "/" }
            if random.next() % 4 == 0 { text = "!" + text }
            return text
        }
        var exclusions = Exclusions(roots: [root])
        for folder in [""] + folders.filter({ _ in random.next() % 3 == 0 }) {
            let lines =
                ["# a comment", ""] + (0..<Int(2 + random.next() % 4)).map { _ in pattern() } + ["trailing.jpg   "]
            let text = lines.joined(separator: "\n") + "\n"
            let path = folder.isEmpty ? root : root + "/" + folder
            try text.write(toFile: path + "/.gitignore", atomically: true, encoding: .utf8)
            exclusions.setFile(in: path, text: text)
        }

        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.currentDirectoryURL = URL(fileURLWithPath: root)
        git.arguments = ["-c", "core.excludesFile=/dev/null", "check-ignore", "--no-index", "--stdin"]
        let input = Pipe()
        let output = Pipe()
        git.standardInput = input
        git.standardOutput = output
        try Process.run(URL(fileURLWithPath: "/usr/bin/git"), arguments: ["init", "-q", root]).waitUntilExit()
        try git.run()
        let all = folders.dropFirst() + files
        input.fileHandleForWriting.write(Data(all.joined(separator: "\n").utf8 + [10]))
        try input.fileHandleForWriting.close()
        let ignoredByGit = Set(
            String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(separator: "\n").map(String.init)
        )
        git.waitUntilExit()

        var agreed = 0
        for path in all {
            let excluded = exclusions.excludingRule(for: root + "/" + path, isFolder: folders.contains(path)) != nil
            #expect(
                excluded == ignoredByGit.contains(path),
                "\(path): git \(ignoredByGit.contains(path)), photomill \(excluded)"
            )
            if excluded == ignoredByGit.contains(path) { agreed += 1 }
        }
        #expect(agreed == all.count)
        #expect(!ignoredByGit.isEmpty && ignoredByGit.count < all.count, "the seed exercises both verdicts")
    }

    /// The forms by hand (gitignore(5)'s own examples), and what `--exclude` adds.
    @Test func formsAndTheCommandLine() {
        var exclusions = Exclusions(roots: ["/lib"], commandLine: ["*.tmp", "/lib/Private", "!keep.tmp"])
        exclusions.setFile(
            in: "/lib",
            text: "doc/frotz/\n/TODO\n#*.jpg\n\\#hash.jpg\n!/lib.a\n*.a\nfoo/**\n**/cache/x\na/**/z\n"
        )
        exclusions.setFile(in: "/lib/sub", text: "!x.a\n*.tmp\n")
        func excluded(_ path: String, folder: Bool = false) -> String? {
            exclusions.excludingRule(for: "/lib/" + path, isFolder: folder)?.text
        }
        #expect(excluded("doc/frotz", folder: true) == "doc/frotz/")
        #expect(excluded("doc/frotz") == nil, "a file named frotz is no folder")
        #expect(excluded("a/doc/frotz", folder: true) == nil, "a slash in the middle anchors")
        #expect(excluded("TODO") == "/TODO" && excluded("sub/TODO") == nil)
        #expect(excluded("x.jpg") == nil, "# starts a comment")
        #expect(excluded("#hash.jpg") == "\\#hash.jpg")
        #expect(excluded("lib.a") == "*.a", "the last match decides")
        #expect(excluded("sub/x.a") == nil, "a deeper file overrides")
        #expect(excluded("foo", folder: true) == nil && excluded("foo/b/c.jpg") == "foo/**")
        #expect(excluded("cache/x") == "**/cache/x" && excluded("m/n/cache/x") == "**/cache/x")
        #expect(excluded("a/z") == "a/**/z" && excluded("a/b/c/z") == "a/**/z" && excluded("b/a/z") == nil)
        // --exclude: relative to the root, an absolute path anchored where it lies, and last.
        #expect(excluded("sub/deep/y.tmp") == "*.tmp")
        #expect(
            excluded("keep.tmp") == nil && excluded("sub/keep.tmp") == nil,
            "--exclude '!keep.tmp' overrides the file"
        )
        #expect(excluded("Private", folder: true) == "/Private" && excluded("Private/a.jpg") == "/Private")
        #expect(excluded("sub/Private", folder: true) == nil)
        #expect(exclusions.excludingRule(for: "/lib/Private/a.jpg", isFolder: false)?.source == "--exclude")
        #expect(exclusions.excludingRule(for: "/lib/doc/frotz", isFolder: true)?.source == "/lib/.photomillignore:1")
        #expect(exclusions.rule(for: "/other/x.tmp", isFolder: false) == nil, "outside every root")
        // A renamed folder takes its file along.
        exclusions.moveFiles(from: "/lib/sub", to: "/lib/sub2")
        #expect(excluded("sub2/x.a") == nil && excluded("sub/x.a") == "*.a")
        #expect(exclusions.files["/lib/sub2"]?.first?.source == "/lib/sub2/.photomillignore:1")
    }
}
