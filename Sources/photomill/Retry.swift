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
    struct Retry: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put failed tasks back in the queue with a fresh attempt budget.",
            discussion: """
                Takes the same filters as `photomill failed`. A running coordinator picks the \
                tasks up within a second; otherwise the next `photomill run` does.
                """
        )

        @OptionGroup var catalog: CatalogFlags
        @OptionGroup var filters: TaskFilterFlags
        @OptionGroup var errorClass: ErrorClassFlag

        @Flag(help: "Only say how many tasks would be retried.")
        var dryRun = false

        @Flag(help: "Print one JSON object.")
        var json = false

        func run() throws {
            let catalog = try catalog.open(.readWrite, mustExist: true)
            defer { catalog.close() }
            try errorClass.check(in: catalog)
            let counts = try catalog.retryFailed(
                matching: filters.filter(errorClass: errorClass.errorClass),
                dryRun: dryRun,
                now: WallClock.now()
            )
            say(
                RequeueReport(counts: counts, dryRun: dryRun).render(
                    json: json,
                    verb: dryRun ? "would retry" : "retried",
                    what: "failed tasks"
                )
            )
        }
    }
}

/// What retry and reprocess print: {"dryRun": false, "tasks": 12, "byKind": {"ocr": 12}}.
struct RequeueReport: Encodable {
    let dryRun: Bool
    let tasks: Int
    let byKind: [String: Int]

    init(counts: [Kind: Int], dryRun: Bool) {
        self.dryRun = dryRun
        tasks = counts.values.reduce(0, +)
        byKind = Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) })
    }

    func render(json: Bool, verb: String, what: String) -> String {
        if json { return jsonLine(self) }
        let kinds = Kind.allCases.compactMap { kind in byKind[kind.rawValue].map { "\(kind.rawValue) \($0)" } }
        var line = "\(verb) \(tasks) \(what)" + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))")
        if !dryRun && tasks > 0 { line += "; a running coordinator picks them up, or run `photomill run` again" }
        return line
    }
}
