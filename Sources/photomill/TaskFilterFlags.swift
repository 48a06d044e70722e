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
import PhotomillCore

/// `--kind` and `--path`, shared by failed, retry and reprocess.
struct TaskFilterFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Only these kinds (comma-separated: \(Kind.names)).", valueName: "K"))
    var kind: String?

    @Option(
        help: ArgumentHelp(
            "Only photos whose absolute path matches this glob (`*` also matches `/`), e.g. '*/2019/*'.",
            valueName: "GLOB"
        )
    )
    var path: String?

    func validate() throws {
        if let kind, case .failure(let error) = Kind.parseList(kind) { throw ValidationError("--kind: \(error)") }
        if let path {
            guard let first = path.first, "/*?[".contains(first) else {
                throw ValidationError(
                    "--path '\(path)' can never match: catalog paths are absolute, so start the glob with / or *"
                )
            }
        }
    }

    func filter(errorClass: ErrorClass? = nil) -> TaskFilter {
        TaskFilter(kinds: kind.flatMap { try? Kind.parseList($0).get() } ?? [], errorClass: errorClass, pathGlob: path)
    }
}

/// `--class`, for failed tasks.
struct ErrorClassFlag: ParsableArguments {
    @Option(
        name: .customLong("class"),
        help: ArgumentHelp("Only failures of this error class, e.g. corrupt, timeout.", valueName: "C")
    )
    var name: String?

    /// The class to filter by, if one was given.
    var errorClass: ErrorClass? { name.map(ErrorClass.init(rawValue:)) }

    func validate() throws {
        if let name, name.isEmpty || !name.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) {
            throw ValidationError("--class must be an error class such as corrupt or worker-lost, not '\(name)'")
        }
    }

    /// Refuses a class that photomill never records and no failed task of this catalog has
    /// (a typo would otherwise match nothing, silently).
    func check(in catalog: Catalog) throws {
        guard let errorClass, case .other(let name) = errorClass else { return }
        let present = try catalog.failedClasses()
        guard present[errorClass] == nil else { return }
        let listed = present.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key) (\($0.value))" }.joined(
            separator: ", "
        )
        printError(
            "photomill: --class '\(name)' is not an error class of this catalog; failed tasks have: \(listed.isEmpty ? "none" : listed)"
        )
        throw ExitCode.usage
    }
}
