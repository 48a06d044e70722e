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
    struct Duplicates: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List groups of photos with the same content (MD5), largest files first.",
            discussion: """
                Hard links of one file (one inode) are one copy, marked as such: deleting one of \
                them frees nothing. Missing photos are left out.
                """
        )

        @OptionGroup var catalog: CatalogFlags

        @Flag(help: "Print JSON Lines: one object per group.")
        var json = false

        func run() throws {
            let groups = try catalog.open(.readOnly).duplicates()
            var redundant = 0
            var bytes: Int64 = 0
            var out = LineBuffer()
            defer { out.flush() }
            let lines = JSONLines()
            for group in groups {
                redundant += group.copies - 1
                bytes += group.size * Int64(group.copies - 1)
                if json {
                    out.append(lines.line(group))
                    continue
                }
                out.append("\(group.md5)  \(group.copies) copies of \(group.size) bytes")
                // A hard link is named after the first name of its file.
                var linkOf: [String: String] = [:]
                for link in group.hardLinks ?? [] { for path in link.dropFirst() { linkOf[path] = link[0] } }
                for path in group.paths {
                    out.append("  " + path + (linkOf[path].map { "  (hard link of \($0): the same file)" } ?? ""))
                }
            }
            if !json { out.append("\(groups.count) groups; \(redundant) redundant files, \(bytes) bytes") }
        }
    }
}
