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
    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy the catalog into one file, consistently, even while a coordinator writes it.",
            discussion: """
                Uses SQLite's backup API on a snapshot: the copy is the catalog as it was at one \
                moment, a single file that opens anywhere (copying the catalog's file alone while \
                it is in use can miss what its -wal file holds). Never replaces a file.
                """
        )

        @OptionGroup var catalog: CatalogFlags

        @Argument(help: "The copy to write (must not exist).")
        var file: String

        func run() throws {
            let catalog = try catalog.open(.readOnly)
            guard !FileManager.default.fileExists(atPath: file) else {
                printError("photomill backup: \(file) exists; choose another name, or remove it first")
                throw ExitCode.cannotCreate
            }
            let bytes: Int64
            do {
                bytes = try catalog.backup(to: file)
            } catch {
                throw fail("backup", error, fallback: .cannotCreate)
            }
            say("backed up \(catalog.path) to \(file) (\(bytes) bytes)")
        }
    }
}
