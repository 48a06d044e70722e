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

struct Photomill: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photomill",
        abstract: "Hashes, metadata, thumbnails and OCR text for large photo collections.",
        version: VersionReport.text,
        subcommands: [
            Run.self, Status.self, Failed.self, Retry.self, Reprocess.self, PauseCommand.self, ResumeCommand.self,
            Prioritize.self, ScanCommand.self, Skipped.self, Search.self, Duplicates.self, Similar.self, Export.self,
            Forget.self, Backup.self, CoordinatorCommand.self,
            WorkerCommand.self, Inspect.self, Samples.self, Keys.self,
        ]
    )
}

extension Photomill {
    /// `AsyncParsableCommand.main()`, but a catalog's error reaching here exits with its
    /// status of docs/operations.md's table and its message alone (ArgumentParser would
    /// print "Error:" and exit 1 for any error but its own). Called from main.swift's
    /// top-level code, `main()` would resolve to ParsableCommand's synchronous one (which
    /// refuses an async command tree).
    static func start() async {
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let error as CatalogError {
            printError("photomill: \(error)")
            Glibc.exit(error.exitCode.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}
