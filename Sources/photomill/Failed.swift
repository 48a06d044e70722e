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
    struct Failed: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "List failed tasks (file, kind, error class, message, attempts, last worker, time) and unreadable folders.",
            discussion: """
                `photomill retry` with the same filters puts failed tasks back in the queue. A folder \
                the scan could not list is shown first (class unreadable, no kind); the next scan reads \
                it again. Missing photos' failures are left out (`photomill forget --missing`).
                """
        )

        @OptionGroup var catalog: CatalogFlags
        @OptionGroup var filters: TaskFilterFlags
        @OptionGroup var errorClass: ErrorClassFlag

        @Flag(help: "Print JSON Lines: one object per failed task.")
        var json = false

        func run() throws {
            let catalog = try catalog.open(.readOnly)
            try errorClass.check(in: catalog)
            let failures = try catalog.failedTasks(matching: filters.filter(errorClass: errorClass.errorClass))
            // Folders have no kind, and fail only as unreadable.
            let folders =
                filters.kind != nil || (errorClass.errorClass.map { $0 != .unreadable } ?? false)
                ? []
                : try catalog.unreadableFolders(pathGlob: filters.path)
            var out = LineBuffer()
            defer { out.flush() }
            if json {
                let lines = JSONLines()
                for folder in folders { out.append(lines.line(FailedLine(folder))) }
                for failure in failures { out.append(lines.line(FailedLine(failure))) }
                return
            }
            for folder in folders {
                out.append(folder.path)
                out.append("  folder \(ErrorClass.unreadable.rawValue) · \(isoTime(folder.at))")
                out.append("  \(folder.message)")
            }
            var byClass: [String: Int] = [:]
            for failure in failures {
                let attempts = failure.attempts == 1 ? "1 attempt" : "\(failure.attempts) attempts"
                let when = failure.failedAt.map(isoTime) ?? "?"
                out.append(failure.path)
                out.append(
                    "  \(failure.kind.rawValue) \(failure.errorClass?.rawValue ?? "?") · \(attempts) · last worker \(failure.worker ?? "none") · \(when)"
                )
                out.append("  \(failure.errorMessage ?? "(no message)")")
                byClass[failure.errorClass?.rawValue ?? "?", default: 0] += 1
            }
            let classes = byClass.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            out.append(
                "\(failures.count) failed tasks" + (classes.isEmpty ? "" : " (\(classes))")
                    + (folders.isEmpty ? "" : "; \(folders.count) unreadable folders")
            )
        }
    }
}

/// `failed --json`: one failed task, or a folder the scan could not list (`folder: true`, no kind).
struct FailedLine: Encodable {
    let path: String
    let kind: Kind?
    let folder: Bool?
    let errorClass: ErrorClass?
    let message: String?
    let attempts: Int
    let worker: String?
    let failedAt: String?

    init(_ failure: FailedTask) {
        path = failure.path
        kind = failure.kind
        folder = nil
        errorClass = failure.errorClass
        message = failure.errorMessage
        attempts = failure.attempts
        worker = failure.worker
        failedAt = failure.failedAt.map(isoTime)
    }

    init(_ unreadable: UnreadableFolder) {
        path = unreadable.path
        kind = nil
        folder = true
        errorClass = .unreadable
        message = unreadable.message
        attempts = 0
        worker = nil
        failedAt = isoTime(unreadable.at)
    }
}
