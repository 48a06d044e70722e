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
import Logging

/// `--catalog FILE`, shared by every command that uses the catalog.
struct CatalogFlags: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The SQLite catalog (default: $PHOTOMILL_CATALOG, else ./photomill.sqlite).",
            valueName: "FILE"
        )
    )
    var catalog: String?

    var path: String {
        catalog ?? ProcessInfo.processInfo.environment["PHOTOMILL_CATALOG"] ?? "photomill.sqlite"
    }

    /// Opens the catalog or exits with a message that says what to do, and the status of
    /// docs/operations.md's table (`CatalogError.exitCode`). `mustExist`: a command that
    /// changes a catalog (retry, reprocess, forget) never creates one from a typo. A write
    /// that waits for another process's lock on the file says so, on stderr or in `logger`.
    func open(_ mode: Catalog.Mode, mustExist: Bool = false, logger: Logger? = nil) throws -> Catalog {
        do throws(CatalogError) {
            if mustExist && !FileManager.default.fileExists(atPath: path) {
                throw CatalogError(
                    .missing,
                    path: path,
                    "no catalog here (run `photomill run` first, or pass --catalog)"
                )
            }
            let path = self.path
            return try Catalog(path: path, mode: mode) { busy in
                switch busy {
                case .waiting(let seconds):
                    let message =
                        "the catalog is locked by another process (a `sqlite3` shell or a backup holding a write transaction?); waiting"
                    if let logger {
                        logger.warning("\(message)", metadata: ["catalog": "\(path)", "seconds": "\(Int(seconds))"])
                    } else {
                        printError("photomill: catalog \(path): \(message) (\(Int(seconds)) s so far)")
                    }
                case .released(let seconds):
                    if let logger {
                        logger.warning(
                            "the catalog's lock was let go; going on",
                            metadata: ["catalog": "\(path)", "seconds": "\(Int(seconds))"]
                        )
                    } else {
                        printError("photomill: catalog \(path): the lock was let go after \(Int(seconds)) s; going on")
                    }
                }
            }
        } catch {
            printError("photomill: \(error)")
            throw error.exitCode
        }
    }
}

/// `--log-level`, shared by the long-running commands.
struct LogFlags: ParsableArguments {
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    func validate() throws {
        guard ["trace", "debug", "info", "notice", "warning", "error", "critical"].contains(logLevel) else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
    }
}
