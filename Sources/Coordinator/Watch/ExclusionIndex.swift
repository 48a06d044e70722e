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
import PhotomillCore

/// The library's `Exclusions`, shared by the scanner (which reads each folder's
/// `.photomillignore` as it walks) and the watcher (which drops the events of excluded
/// paths), and what photomill never scans: its catalog's files and its exports.
final class ExclusionIndex: @unchecked Sendable {
    // @unchecked: `exclusions` is guarded by `lock`; `ownFiles` never changes.
    private let lock = NSLock()
    private var exclusions: Exclusions
    let ownFiles: Set<String>

    init(_ exclusions: Exclusions, ownFiles: Set<String>) {
        self.exclusions = exclusions
        self.ownFiles = ownFiles
    }

    var current: Exclusions { lock.withLock { exclusions } }

    func update<T>(_ body: (inout Exclusions) -> T) -> T { lock.withLock { body(&exclusions) } }

    /// Whether the watcher passes over changes of `path`: photomill's own files, hidden
    /// names (but a `.photomillignore`, which changes the rules), excluded paths.
    func ignores(_ path: String, isFolder: Bool) -> Bool {
        if ownFiles.contains(path) { return true }
        let name = (path as NSString).lastPathComponent
        if name.hasPrefix(".") { return name != Exclusions.fileName || isFolder }
        return lock.withLock { exclusions.rule(for: path, isFolder: isFolder) } != nil
    }
}
