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

import Foundation

/// How the coordinator follows its folders (docs/operations.md, "A living library").
public struct LibraryConfiguration: Sendable, Hashable {
    /// Watch the folders with inotify (`coordinator`, `run --watch`); false: scan once and
    /// settle only the files that scan found still changing (`run`).
    public var watch = false
    /// `--exclude` patterns (gitignore's syntax, relative to each scanned folder).
    public var exclude: [String] = []
    /// Seconds a changed file must stay the same before it is processed (`--settle`).
    public var settle: Double = 2
    /// Seconds between full scans (`--rescan-interval`); polled folders are looked at then.
    public var rescanInterval: Double = 6 * 3600
    /// The most inotify watches to hold (`--max-watches`); nil: 90 % of the kernel's
    /// `fs.inotify.max_user_watches`, the rest left to other programs.
    public var maxWatches: Int?

    public init() {}

    /// The kernel's limit on one user's inotify watches (`fs.inotify.max_user_watches`).
    public static func kernelWatchLimit() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/sys/fs/inotify/max_user_watches", encoding: .utf8) else {
            return nil
        }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The watches this coordinator may hold.
    public var watchLimit: Int {
        let kernel = Self.kernelWatchLimit() ?? 8192
        return min(maxWatches ?? kernel * 9 / 10, kernel)
    }
}
