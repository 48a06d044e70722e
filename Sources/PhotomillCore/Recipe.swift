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

/// A result's recipe, as PROTOCOL.md ("Recipes") defines it: `KIND/VERSION`, then
/// space-separated `KEY=VALUE` parameters (`thumbnail/2 size=256 q=80`). VERSION numbers
/// the *definition* of the kind's result in the protocol, not an implementation: a worker
/// in another language that computes what `thumbnail/2` defines says `thumbnail/2`, and
/// may add keys of its own (`impl=pyworker-0.1`).
///
/// `reprocess --outdated` judges a stored result against the coordinator's current recipe
/// of its kind (`isOutdated`): outdated when it is of an older version, or when a parameter
/// the current recipe names has another value or is missing. Keys the current recipe does
/// not name, and newer versions, are not a reason to redo the work; a recipe that does not
/// parse is (nothing can be said of how its result was made).
public struct Recipe: Hashable, Sendable {
    public var kind: String
    public var version: Int
    public var parameters: [String: String]

    public init(kind: String, version: Int, parameters: [String: String] = [:]) {
        self.kind = kind
        self.version = version
        self.parameters = parameters
    }

    /// Nil for text that is not `KIND/VERSION [KEY=VALUE …]`.
    public init?(_ text: String) {
        var words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard !words.isEmpty else { return nil }
        let head = words.removeFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard head.count == 2, !head[0].isEmpty, let version = Int(head[1]), version >= 0 else { return nil }
        var parameters: [String: String] = [:]
        for word in words {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { return nil }
            parameters[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        self.init(kind: String(head[0]), version: version, parameters: parameters)
    }

    /// Whether a result made by this recipe should be made again to match `current`.
    public func isOutdated(comparedTo current: Recipe) -> Bool {
        kind != current.kind || version < current.version
            || current.parameters.contains { key, value in parameters[key] != value }
    }

    /// `isOutdated` for stored text: a missing or unreadable recipe is outdated.
    public static func isOutdated(_ stored: String?, current: String) -> Bool {
        guard let stored, stored != current else { return stored == nil }
        guard let recipe = Recipe(stored), let now = Recipe(current) else { return true }
        return recipe.isOutdated(comparedTo: now)
    }
}
