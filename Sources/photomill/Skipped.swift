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
    struct Skipped: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the files and folders the scans left out, and why.",
            discussion: """
                Reasons: not-media (not a photo, RAW or video, and not named as one), hidden (a name \
                starting with a dot; a folder is listed once), excluded (--exclude or a \
                .photomillignore: the pattern is shown), cache-folder (CACHEDIR.TAG), photomill-file \
                (the catalog, the exports), link-outside-roots, link-loop, link-broken (symbolic links \
                photomill does not follow; those that stay under a photo folder are followed), fifo, \
                socket, device (never opened). A file named as a photo, RAW or video that is empty or \
                not one is no skip: it fails (`photomill failed`).
                """
        )

        @OptionGroup var catalog: CatalogFlags

        @Option(help: ArgumentHelp("Only this reason.", valueName: "REASON"))
        var reason: String?

        @Option(help: ArgumentHelp("Only paths matching this glob ('*' also matches '/').", valueName: "GLOB"))
        var path: String?

        @Flag(help: "Print JSON Lines: one object per file.")
        var json = false

        func validate() throws {
            if let reason, SkipReason(rawValue: reason) == nil {
                throw ValidationError(
                    "--reason must be one of \(SkipReason.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
        }

        func run() throws {
            let catalog = try catalog.open(.readOnly)
            let files = try catalog.skippedFiles(reason: reason.flatMap(SkipReason.init(rawValue:)), pathGlob: path)
            var out = LineBuffer()
            defer { out.flush() }
            if json {
                let lines = JSONLines()
                for file in files { out.append(lines.line(SkippedLine(file))) }
                return
            }
            var counts: [SkipReason: Int] = [:]
            for file in files {
                counts[file.reason, default: 0] += 1
                out.append(PathBytes.display(file.path))
                out.append(
                    "  \(file.reason.rawValue): \(file.reason.words)"
                        + (file.detail.map { " · \(PathBytes.display($0))" } ?? "")
                )
            }
            let reasons = counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
                .joined(separator: ", ")
            out.append("\(files.count) skipped" + (reasons.isEmpty ? "" : " (\(reasons))"))
        }
    }
}

/// `skipped --json`: one file or folder left out.
struct SkippedLine: Encodable {
    let path: String
    let reason: String
    let why: String
    let detail: String?
    let size: Int64
    let scannedAt: String

    init(_ file: SkippedFile) {
        path = file.path
        reason = file.reason.rawValue
        why = file.reason.words
        detail = file.detail
        size = file.size
        scannedAt = isoTime(file.scannedAt)
    }
}
