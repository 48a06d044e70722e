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

extension Photomill {
    struct Forget: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove the photos no longer found from the catalog, with their tasks, results and history.",
            discussion: """
                A scan marks missing the photos it no longer finds (deleted, or on a share that \
                is not mounted); they stay in the catalog, left out of status, search, duplicates \
                and the exports, and come back with their results when found again. `forget \
                --missing` deletes them for good. Not while a coordinator runs on the catalog (75).
                """
        )

        @OptionGroup var catalog: CatalogFlags

        @Flag(help: "The photos the last scan of their folder no longer found.")
        var missing = false

        @Flag(help: "Only list what would be forgotten.")
        var dryRun = false

        @Flag(help: "Print one JSON object: {\"dryRun\": …, \"photos\": N, \"paths\": […]}.")
        var json = false

        func validate() throws {
            guard missing else {
                throw ValidationError("say what to forget: --missing (the photos the scan no longer finds)")
            }
        }

        func run() throws {
            let paths: [String]
            if dryRun {
                paths = try catalog.open(.readOnly).missingPaths()
            } else {
                let catalog = try catalog.open(.exclusive, mustExist: true)
                defer { catalog.close() }
                paths = try catalog.forgetMissing()
            }
            if json {
                print(jsonLine(ForgetReport(dryRun: dryRun, photos: paths.count, paths: paths)))
                return
            }
            var out = LineBuffer()
            defer { out.flush() }
            for path in paths { out.append(path) }
            out.append(
                "\(dryRun ? "would forget" : "forgot") \(paths.count) missing photos"
                    + (paths.isEmpty || dryRun ? "" : " with their tasks, results and history")
            )
        }
    }
}

/// `forget --json`.
struct ForgetReport: Encodable {
    let dryRun: Bool
    let photos: Int
    let paths: [String]
}
