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
import Coordinator
import Foundation

/// How `run` and `coordinator` follow their folders (docs/operations.md, "A living library").
struct LibraryFlags: ParsableArguments {
    @Option(
        name: .customLong("exclude"),
        help: ArgumentHelp(
            """
            Leave out what this pattern matches (gitignore's syntax, relative to each photo folder: \
            '*.tmp', 'Trash/', '/2019/private', '**/@eaDir'; repeatable). A .photomillignore file in \
            any folder says the same for what lies under it.
            """,
            valueName: "GLOB"
        )
    )
    var exclude: [String] = []

    @Option(
        help: ArgumentHelp(
            "Seconds a changed file must stay the same (size, mtime, ctime, no writer) before it is processed (default 2).",
            valueName: "SECONDS"
        )
    )
    var settle: Double = 2

    @Option(
        help: ArgumentHelp(
            """
            Time between full rescans, which also look at folders that are polled instead of watched \
            (network file systems, past the watch limit): 90s, 30m, 6h, 1d (default 6h).
            """,
            valueName: "DURATION"
        )
    )
    var rescanInterval: String = "6h"

    @Option(
        help: ArgumentHelp(
            """
            The most inotify watches (one per folder) to hold; the folders past it are polled (default: \
            90 % of fs.inotify.max_user_watches, the rest left to other programs).
            """,
            valueName: "N"
        )
    )
    var maxWatches: Int?

    func validate() throws {
        for pattern in exclude where pattern.trimmingCharacters(in: .whitespaces).isEmpty || pattern.hasPrefix("#") {
            throw ValidationError("--exclude '\(pattern)' matches nothing: give a pattern such as '*.tmp' or 'Trash/'")
        }
        guard (0...3600).contains(settle) else { throw ValidationError("--settle must be between 0 and 3600 seconds") }
        guard let interval = Self.seconds(rescanInterval), interval >= 10 else {
            throw ValidationError(
                "--rescan-interval must be a duration of at least 10s, such as 90s, 30m, 6h or 1d, not '\(rescanInterval)'"
            )
        }
        _ = interval
        if let maxWatches, maxWatches < 0 { throw ValidationError("--max-watches must be 0 or more") }
    }

    /// The configuration; `watch`: follow the folders with inotify.
    func configuration(watch: Bool) -> LibraryConfiguration {
        var library = LibraryConfiguration()
        library.watch = watch
        library.exclude = exclude
        library.settle = settle
        library.rescanInterval = Self.seconds(rescanInterval) ?? 6 * 3600
        library.maxWatches = maxWatches
        return library
    }

    /// `90s`, `30m`, `6h`, `1d`, or a number of seconds.
    static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let unit = text.last, let factor = units[unit], let value = Double(text.dropLast()), value >= 0 {
            return value * factor
        }
        return Double(text).flatMap { $0 >= 0 ? $0 : nil }
    }
}
