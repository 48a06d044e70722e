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

/// One line of a `.photomillignore` file, or one `--exclude`: gitignore's pattern syntax
/// (gitignore(5), "PATTERN FORMAT"), matched against paths relative to the folder the
/// rule belongs to (`base`).
///
/// - `#` starts a comment, a blank line matches nothing, trailing spaces go unless
///   escaped with `\`;
/// - `!` negates: a path a rule before excluded is included again (not under a folder
///   that is itself excluded: the scan never looks inside one);
/// - a trailing `/` matches folders only;
/// - a `/` at the start or in the middle anchors the pattern at `base`; without one it
///   matches a name at any depth below `base`;
/// - `*` and `?` never match `/`, `[a-z]` and `[!a-z]` are ranges (fnmatch(3) matches
///   each path component, so escapes `\*` work as they do there); `**/` at the start
///   matches in every folder, `/**` at the end everything inside, `/**/` zero or more
///   folders; any other `**` is a plain `*`.
public struct IgnorePattern: Sendable, Hashable, CustomStringConvertible {
    /// The line as written (trailing spaces removed).
    public let text: String
    /// Where it comes from: `FOLDER/.photomillignore:LINE`, or `--exclude`.
    public let source: String
    /// The folder the pattern is relative to (no trailing `/`).
    public let base: String
    public let negated: Bool
    public let foldersOnly: Bool
    let anchored: Bool
    let segments: [Segment]

    enum Segment: Hashable {
        /// `**`: zero or more path components.
        case any
        /// One component, an fnmatch(3) pattern.
        case glob(String)
    }

    /// The pattern of one line, or nil for a blank line or a comment.
    public init?(line: String, base: String, source: String) {
        var text = Substring(line)
        if text.hasSuffix("\r") { text = text.dropLast() }
        // Trailing spaces go, unless the last is escaped ("\ ").
        while text.hasSuffix(" ") && !text.hasSuffix("\\ ") { text = text.dropLast() }
        guard !text.isEmpty, !text.hasPrefix("#") else { return nil }
        self.text = String(text)
        self.source = source
        self.base = base.count > 1 && base.hasSuffix("/") ? String(base.dropLast()) : base
        negated = text.hasPrefix("!")
        if negated { text = text.dropFirst() }
        foldersOnly = text.hasSuffix("/")
        while text.hasSuffix("/") { text = text.dropLast() }
        guard !text.isEmpty else { return nil }
        anchored = text.dropLast().contains("/")
        if text.hasPrefix("/") { text = text.drop { $0 == "/" } }
        let parts = text.split(separator: "/", omittingEmptySubsequences: true).map {
            $0 == "**" ? Segment.any : Segment.glob(Self.collapsingStars(String($0)))
        }
        guard !parts.isEmpty else { return nil }
        segments = parts
    }

    public var description: String { "\(source) \"\(text)\"" }

    /// Whether the pattern matches `components` (a path relative to `base`, split at `/`),
    /// which names a folder when `isFolder`.
    func matches(_ components: ArraySlice<String>, isFolder: Bool) -> Bool {
        guard !components.isEmpty, isFolder || !foldersOnly else { return false }
        if anchored { return Self.match(segments[...], components) }
        // No slash: the last component, at any depth.
        return Self.match(segments[...], components.suffix(1))
    }

    private static func match(_ segments: ArraySlice<Segment>, _ components: ArraySlice<String>) -> Bool {
        guard let first = segments.first else { return components.isEmpty }
        switch first {
        case .any:
            let rest = segments.dropFirst()
            // A trailing `**` matches everything inside, but not the folder itself.
            if rest.isEmpty { return !components.isEmpty }
            var tail = components
            while true {
                if match(rest, tail) { return true }
                guard !tail.isEmpty else { return false }
                tail = tail.dropFirst()
            }
        case .glob(let pattern):
            guard let component = components.first, fnmatch(pattern, component, 0) == 0 else { return false }
            return match(segments.dropFirst(), components.dropFirst())
        }
    }

    /// `a**b` is `a*b` (only a `**` that is a whole component is special).
    private static func collapsingStars(_ glob: String) -> String {
        var result = ""
        var escaped = false
        var afterStar = false
        for character in glob {
            if escaped {
                escaped = false
                afterStar = false
            } else if character == "\\" {
                escaped = true
            } else if character == "*" {
                if afterStar { continue }
                afterStar = true
                result.append(character)
                continue
            }
            afterStar = false
            result.append(character)
        }
        return result
    }
}
