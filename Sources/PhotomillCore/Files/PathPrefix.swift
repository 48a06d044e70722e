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

extension String {
    /// Whether this absolute path is `root` or lies below it, component-wise: `/photos`
    /// covers `/photos/a.jpg`, not `/photos2/a.jpg`; `/` covers every absolute path. The
    /// one rule for a worker's roots, the coordinator's routing and the path maps.
    public func isPath(under root: String) -> Bool {
        self == root || hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// This path with its prefix `from` replaced by `to` (`/volume1/photos/a.jpg` from
    /// `/volume1/photos` to `/mnt/photos` is `/mnt/photos/a.jpg`); nil when it does not lie
    /// under `from`.
    public func replacingPathPrefix(_ from: String, with to: String) -> String? {
        guard isPath(under: from) else { return nil }
        return to + dropFirst(from.count)
    }
}
