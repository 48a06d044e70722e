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

/// photomill's version: `--version`, the Debian package's version (scripts/package-deb.sh
/// reads it from `--version`), and the `software_version` a worker's READY carries.
public enum PhotomillVersion {
    public static let number = "0.2.0"
    /// As READY carries it when the commit is not known: `photomill/0.2.0`.
    public static let software = "photomill/" + number

    /// As READY carries it: `photomill/0.2.0+0a5e650c1d2e`, the commit's first 12 hex
    /// digits as semver build metadata, `.dirty` after it for a tree with uncommitted
    /// changes. No spaces and at most 38 bytes: PROTOCOL.md allows 64 printable ones.
    public static func software(commit: String?, dirty: Bool) -> String {
        guard let commit else { return software }
        return software + "+" + commit.prefix(12) + (dirty ? ".dirty" : "")
    }
}
