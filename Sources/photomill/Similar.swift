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
    struct Similar: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List groups of near-duplicate photos (perceptual hash), largest groups first.",
            discussion: """
                A photo joins a group when its 64-bit hash is within --distance bits of a \
                member's and their finer 256-bit hashes agree too: resized, re-saved, \
                converted, turned by EXIF or slightly cropped copies of one picture. The best copy (largest pixel size, then largest file, then oldest) comes \
                first; each photo shows its distance from it, and exact copies (same MD5) are \
                marked. Needs the similarity kind done; missing photos are left out. Nothing is \
                deleted.
                """
        )

        @OptionGroup var catalog: CatalogFlags

        @Option(
            help: ArgumentHelp(
                "Bits two hashes may differ in, \(Catalog.similarDistances.lowerBound)-\(Catalog.similarDistances.upperBound).",
                valueName: "N"
            )
        )
        var distance = Catalog.defaultSimilarDistance

        @Option(
            name: .customLong("path"),
            help: ArgumentHelp(
                "Only photos whose path matches this glob (* also matches /).",
                valueName: "GLOB"
            )
        )
        var pathGlob: String?

        @Flag(help: "Print JSON Lines: one object per group.")
        var json = false

        func validate() throws {
            try Self.checkDistance(distance)
            if let pathGlob, pathGlob.isEmpty { throw ValidationError("--path must not be empty") }
        }

        static func checkDistance(_ distance: Int) throws {
            guard Catalog.similarDistances.contains(distance) else {
                throw ValidationError(
                    "--distance must be between \(Catalog.similarDistances.lowerBound) and \(Catalog.similarDistances.upperBound) bits, not \(distance)"
                )
            }
        }

        func run() throws {
            let groups = try catalog.open(.readOnly).similarGroups(within: distance, pathGlob: pathGlob)
            var out = LineBuffer()
            defer { out.flush() }
            let lines = JSONLines()
            for group in groups {
                if json {
                    out.append(lines.line(group))
                    continue
                }
                out.append("\(group.photos.count) alike; best copy \(group.photos[0].path)")
                for photo in group.photos { out.append(Self.line(photo)) }
            }
            if !json {
                let others = groups.reduce(0) { $0 + $1.photos.count - 1 }
                out.append("\(groups.count) groups; \(others) photos have a better copy (distance \(distance))")
            }
        }

        /// "  * /p/a.jpg  4032×3024  2.1 MB  2019-07-14T18:00:00  best" and alike.
        static func line(_ photo: SimilarPhoto, bestMark: Bool = true) -> String {
            var facts = [photo.path]
            if let width = photo.pixelWidth, let height = photo.pixelHeight { facts.append("\(width)×\(height)") }
            facts.append("\(photo.size) bytes")
            if let date = photo.date { facts.append(date) }
            if photo.best == true {
                facts.append("best copy")
            } else {
                facts.append("distance \(photo.distance)")
            }
            if let original = photo.exactCopyOf { facts.append("exact copy of \(original)") }
            return (bestMark && photo.best == true ? "  * " : "    ") + facts.joined(separator: "  ")
        }
    }
}
