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

/// Why the pending tasks of a kind wait for a worker, as the coordinator last saw: stored in
/// `waits` as a code and its detail (docs/catalog.md), shown in words by `status` and the
/// run's summary (`photomill/WaitReason+Words.swift`), which the dashboard shows too.
public enum WaitReason: Sendable, Hashable {
    /// The coordinator was not asked for this kind (`--kinds`); a changed file queues all
    /// of its kinds again, whatever `--kinds` said.
    case notAskedFor(asked: Set<Kind>)
    /// No worker is connected.
    case noWorkerConnected
    /// Workers offer the kind, but none in the coordinator's language; `offered`: the
    /// languages they offer.
    case languageNotOffered(language: String, offered: [String])
    /// No connected worker offers the kind.
    case kindNotOffered

    /// `waits.reason`.
    public var code: String {
        switch self {
        case .notAskedFor: "not-asked-for"
        case .noWorkerConnected: "no-worker"
        case .languageNotOffered: "language-not-offered"
        case .kindNotOffered: "kind-not-offered"
        }
    }

    /// `waits.detail`: the kinds asked for (`hash,metadata`), or the language and those
    /// offered (`eng;deu,fra`); nil otherwise.
    public var detail: String? {
        switch self {
        case .notAskedFor(let asked): Kind.list(asked)
        case .languageNotOffered(let language, let offered): language + ";" + offered.joined(separator: ",")
        case .noWorkerConnected, .kindNotOffered: nil
        }
    }

    /// From `waits`; nil for a code this version does not know.
    public init?(code: String, detail: String?) {
        switch code {
        case "not-asked-for":
            guard let asked = try? Kind.parseList(detail ?? "").get() else { return nil }
            self = .notAskedFor(asked: asked)
        case "no-worker":
            self = .noWorkerConnected
        case "language-not-offered":
            let parts = (detail ?? "").split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            self = .languageNotOffered(
                language: String(parts[0]),
                offered: parts[1].split(separator: ",").map(String.init)
            )
        case "kind-not-offered":
            self = .kindNotOffered
        default:
            return nil
        }
    }
}
