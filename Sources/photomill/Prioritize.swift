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
    struct Prioritize: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move the photos of a folder (or a path glob) to the front of the queue.",
            discussion: """
                Their unfinished tasks go ahead of every other photo's, of every kind, and of any \
                folder prioritized before. A running coordinator starts them within a second. A \
                folder stands for every photo under it; a glob is matched against absolute paths \
                (`*` also matches `/`), as `--path` is: '*/2019/*'.
                """
        )

        @OptionGroup var catalog: CatalogFlags

        @Argument(help: ArgumentHelp("A folder, or a glob over absolute paths.", valueName: "PATH-GLOB"))
        var target: String

        @Flag(help: "Print one JSON object.")
        var json = false

        /// The glob the catalog matches: a folder that exists is that folder, whatever its
        /// name holds (`[2019] Trip`), and stands for every path under it; a file that exists
        /// is that file; anything else is a glob.
        var glob: String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) else { return target }
            let path = Self.globLiteral(URL(fileURLWithPath: target).standardizedFileURL.path)
            guard isDirectory.boolValue else { return path }
            return (path == "/" ? "" : path) + "/*"
        }

        /// `path` as a glob that matches it alone: SQLite's GLOB metacharacters (`*`, `?`,
        /// `[`) each in brackets.
        static func globLiteral(_ path: String) -> String {
            path.map { "*?[".contains($0) ? "[\($0)]" : String($0) }.joined()
        }

        func validate() throws {
            guard let first = glob.first, "/*?[".contains(first) else {
                throw ValidationError(
                    "'\(target)' is neither a folder nor a glob that can match: catalog paths are absolute, so start the glob with / or *"
                )
            }
        }

        func run() throws {
            let catalog = try catalog.open(.readWrite, mustExist: true)
            let counts = try catalog.prioritize(pathGlob: glob, now: WallClock.now())
            let report = RequeueReport(counts: counts, dryRun: false)
            if json { return print(jsonLine(report)) }
            let which =
                glob == target
                ? "matching '\(glob)'" : "under '\(URL(fileURLWithPath: target).standardizedFileURL.path)'"
            say(
                report.tasks == 0
                    ? "no pending task of a photo \(which); later work of those photos goes first"
                    : report.render(json: false, verb: "moved", what: "pending tasks of photos \(which) to the front")
            )
        }
    }
}
