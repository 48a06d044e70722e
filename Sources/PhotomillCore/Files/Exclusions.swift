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

/// What a library leaves out: the `--exclude` patterns, each as if written at the top of
/// every scanned folder (an absolute path under a scanned folder is anchored there), and
/// the `.photomillignore` files in its folders (`IgnorePattern` has the syntax). One rule
/// for the scan, the watcher and every filter: a path is excluded when the last pattern
/// that matches it excludes it, the patterns taken in this order — the files from the top
/// folder down (a deeper file overrides a higher one), then `--exclude` (the operator's
/// word overrides the files'). A path under an excluded folder is excluded whatever a
/// pattern says of it: the scan never looks inside such a folder.
public struct Exclusions: Sendable, Hashable {
    /// The name of the file that holds a folder's patterns.
    public static let fileName = ".photomillignore"

    public let roots: [String]
    /// `--exclude` as given.
    public let commandLine: [String]
    private var commandPatterns: [String: [IgnorePattern]] = [:]
    /// The patterns of each folder's `.photomillignore`, by folder.
    public private(set) var files: [String: [IgnorePattern]] = [:]

    public init(roots: [String], commandLine: [String] = []) {
        self.roots = roots
        self.commandLine = commandLine
        for root in roots {
            commandPatterns[root] = commandLine.compactMap { pattern -> IgnorePattern? in
                let negated = pattern.hasPrefix("!")
                let body = negated ? String(pattern.dropFirst()) : pattern
                guard body.hasPrefix("/"),
                    let deepest = roots.filter({ body.isPath(under: $0) }).max(by: { $0.count < $1.count })
                else { return IgnorePattern(line: pattern, base: root, source: "--exclude") }
                // An absolute path: a pattern of the scanned folder it lies in, anchored there.
                guard deepest == root, body != root else { return nil }
                let relative = "/" + body.dropFirst(root == "/" ? 1 : root.count + 1)
                return IgnorePattern(line: (negated ? "!" : "") + relative, base: root, source: "--exclude")
            }
        }
    }

    /// No pattern at all: nothing is excluded.
    public var isEmpty: Bool { files.isEmpty && commandPatterns.values.allSatisfy(\.isEmpty) }

    /// The patterns of a `.photomillignore` file.
    public static func patterns(of text: String, folder: String) -> [IgnorePattern] {
        let file = (folder == "/" ? "" : folder) + "/" + fileName
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { number, line in
            IgnorePattern(line: String(line), base: folder, source: "\(file):\(number + 1)")
        }
    }

    /// Records what `folder`'s `.photomillignore` says (nil: it has none); whether that changed.
    @discardableResult
    public mutating func setFile(in folder: String, text: String?) -> Bool {
        let patterns = text.map { Self.patterns(of: $0, folder: folder) } ?? []
        let old = files[folder] ?? []
        files[folder] = patterns.isEmpty ? nil : patterns
        return old != patterns
    }

    /// Forgets the files of `folder` and every folder below it (gone, or about to be read again).
    public mutating func forgetFiles(under folder: String) {
        files = files.filter { !$0.key.isPath(under: folder) }
    }

    /// The files of the folders under `from`, now under `to` (a folder renamed).
    public mutating func moveFiles(from: String, to: String) {
        var moved: [String: [IgnorePattern]] = [:]
        for (folder, patterns) in files {
            if let target = folder.replacingPathPrefix(from, with: to) {
                let file = (target == "/" ? "" : target) + "/" + Self.fileName
                moved[target] = patterns.compactMap { pattern in
                    let line = pattern.source.split(separator: ":").last.map(String.init) ?? ""
                    return IgnorePattern(line: pattern.text, base: target, source: "\(file):\(line)")
                }
            } else {
                moved[folder] = patterns
            }
        }
        files = moved
    }

    /// The pattern that excludes `path` itself, judged by its own name and place (the
    /// folders above it are not looked at: the walk asks as it goes down); nil when none does.
    public func rule(for path: String, isFolder: Bool) -> IgnorePattern? {
        guard !isEmpty, let root = root(of: path), path != root else { return nil }
        var last: IgnorePattern?
        func consider(_ patterns: [IgnorePattern]) {
            for pattern in patterns {
                let relative = Self.components(of: path, under: pattern.base)
                if pattern.matches(relative[...], isFolder: isFolder) { last = pattern }
            }
        }
        var folder = root
        let steps = Self.components(of: path, under: root).dropLast()
        if let patterns = files[folder] { consider(patterns) }
        for step in steps {
            folder = folder == "/" ? "/" + step : folder + "/" + step
            if let patterns = files[folder] { consider(patterns) }
        }
        consider(commandPatterns[root] ?? [])
        guard let last, !last.negated else { return nil }
        return last
    }

    /// The pattern that excludes `path` or one of the folders above it (under its root);
    /// nil when it is not excluded. For a path found other than by a walk (a change the
    /// watcher saw, a path given to `photomill scan`).
    public func excludingRule(for path: String, isFolder: Bool) -> IgnorePattern? {
        guard !isEmpty, let root = root(of: path), path != root else { return nil }
        var folder = root
        for step in Self.components(of: path, under: root).dropLast() {
            folder = folder == "/" ? "/" + step : folder + "/" + step
            if let rule = rule(for: folder, isFolder: true) { return rule }
        }
        return rule(for: path, isFolder: isFolder)
    }

    /// The scanned folder `path` lies in (the deepest, when they nest).
    public func root(of path: String) -> String? {
        roots.filter { path.isPath(under: $0) }.max { $0.count < $1.count }
    }

    private static func components(of path: String, under base: String) -> [String] {
        let relative = base == "/" ? path.dropFirst() : path.dropFirst(base.count + 1)
        return relative.split(separator: "/").map(String.init)
    }
}
