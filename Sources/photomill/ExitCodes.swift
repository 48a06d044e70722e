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

/// Every command's exit status, one table for all (docs/operations.md, "Exit codes"):
/// sysexits.h where it has a word for the case.
extension ExitCode {
    /// Finished, but some work failed (tasks, unreadable files or folders, export files),
    /// or a failure the message names.
    static let someFailed = ExitCode(1)
    /// EX_USAGE: a bad flag or argument (ArgumentParser's `ValidationError` too).
    static let usage = ExitCode(64)
    /// EX_DATAERR: a file that is not a photomill catalog, or one of a newer photomill.
    static let dataError = ExitCode(65)
    /// EX_NOINPUT: no such catalog, photo folder or file, or one this user may not read.
    static let noInput = ExitCode(66)
    /// EX_UNAVAILABLE: the command needs a running coordinator and none holds the catalog
    /// (`photomill scan`).
    static let unavailable = ExitCode(69)
    /// EX_CANTCREAT: an output that cannot be created, or would replace a file.
    static let cannotCreate = ExitCode(73)
    /// EX_IOERR: the catalog cannot be read or written (permissions, read-only or full
    /// disk, damage).
    static let ioError = ExitCode(74)
    /// EX_TEMPFAIL: the catalog is in use by another coordinator; try again later.
    static let temporaryFailure = ExitCode(75)
    /// 128 + SIGINT: `run` stopped by a signal before its work was done.
    static let interrupted = ExitCode(130)
}

extension CatalogError {
    var exitCode: ExitCode {
        switch code {
        case .missing: .noInput
        case .notACatalog, .newerSchema: .dataError
        case .inUse: .temporaryFailure
        default: .ioError
        }
    }
}

/// Prints `photomill COMMAND: error` and exits with the error's status: a catalog's
/// (`CatalogError.exitCode`), or `fallback` for anything else.
func fail(_ command: String, _ error: any Error, fallback: ExitCode = .someFailed) -> ExitCode {
    printError("photomill \(command): \(error)")
    return (error as? CatalogError)?.exitCode ?? fallback
}
