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

import ArgumentParser
import Catalog
import Foundation
import PhotomillCore

extension Photomill {
    struct PauseCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pause",
            abstract: "Stop leasing tasks of some kinds (all, with none named) until `photomill resume`.",
            discussion: """
                Kept in the catalog: a running coordinator stops leasing them within a second and \
                lets the jobs already out finish; a restart keeps the pause. `status` shows what is \
                paused and why its tasks wait. `run` ends when the work it may do is done.
                """
        )

        @OptionGroup var catalog: CatalogFlags
        @OptionGroup var kinds: KindArguments

        @Option(help: "Why, for `status` and the dashboard.")
        var reason = "paused with `photomill pause`"

        @Flag(help: "Print one JSON object.")
        var json = false

        func run() throws {
            let catalog = try catalog.open(.readWrite, mustExist: true)
            let changed = try catalog.pause(kinds.kinds, reason: reason, now: WallClock.now())
            let report = PauseReport(paused: try catalog.steering().paused, changed: changed)
            print(json ? jsonLine(report) : report.text(verb: "paused"))
        }
    }

    struct ResumeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resume",
            abstract: "Lease tasks of paused kinds again (all, with none named).",
            discussion: "A running coordinator picks them up within a second."
        )

        @OptionGroup var catalog: CatalogFlags
        @OptionGroup var kinds: KindArguments

        @Flag(help: "Print one JSON object.")
        var json = false

        func run() throws {
            let catalog = try catalog.open(.readWrite, mustExist: true)
            let changed = try catalog.resume(kinds.kinds)
            let report = PauseReport(paused: try catalog.steering().paused, changed: changed)
            print(json ? jsonLine(report) : report.text(verb: "resumed"))
        }
    }
}

/// `KIND…` of pause and resume: kinds, each argument one or a comma-separated list.
struct KindArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("Kinds: \(Kind.names) (default: all).", valueName: "KIND"))
    var names: [String] = []

    func validate() throws {
        for name in names {
            if case .failure(let error) = Kind.parseList(name) { throw ValidationError("\(error)") }
        }
    }

    var kinds: Set<Kind> {
        names.isEmpty ? Set(Kind.allCases) : Set(names.flatMap { (try? Kind.parseList($0).get()) ?? [] })
    }
}

/// What pause and resume print: {"changed": ["ocr"], "paused": {"ocr": {"reason": "…", "since": "…"}}}.
struct PauseReport: Encodable {
    struct Paused: Encodable {
        let reason: String
        let since: String
    }
    let paused: [String: Paused]
    let changed: [String]

    init(paused: [Kind: Pause], changed: Set<Kind>) {
        self.paused = Dictionary(
            uniqueKeysWithValues: paused.map {
                ($0.key.rawValue, Paused(reason: $0.value.reason, since: isoTime($0.value.since)))
            }
        )
        self.changed = changed.sorted().map(\.rawValue)
    }

    func text(verb: String) -> String {
        var lines = [
            changed.isEmpty
                ? "\(verb) nothing: no kind changed"
                : "\(verb) \(changed.joined(separator: ", "))"
                    + "; a running coordinator follows within a second"
        ]
        let stillPaused = Kind.allCases.map(\.rawValue).filter { paused[$0] != nil }
        lines.append(
            stillPaused.isEmpty
                ? "nothing is paused"
                : "paused now: "
                    + stillPaused.map { "\($0) (since \(paused[$0]!.since): \(paused[$0]!.reason))" }.joined(
                        separator: ", "
                    )
        )
        if verb == "paused" && !changed.isEmpty {
            lines.append(
                "jobs already out finish; `photomill resume \(changed.joined(separator: " "))` lets them go on"
            )
        }
        return terminalText(lines)
    }
}
