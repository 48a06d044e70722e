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

extension Exporter {
    /// Removes the temporary files (`.NAME.PID.RANDOM.tmp`, see `AtomicFile`) that a
    /// process killed in the middle of a write left behind, when that process is gone.
    /// A temporary file never carries a final name, so no reader ever saw it; this only
    /// keeps the folders clean. Returns how many were removed.
    @discardableResult
    public func removeLeftovers() -> Int {
        var removed = 0
        for folder in Self.folders + [""] {
            let url = root.appendingPathComponent(folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            where name.hasPrefix(".") && name.hasSuffix(".tmp") {
                let parts = name.split(separator: ".")
                guard parts.count >= 4, let pid = Int32(parts[parts.count - 3]), !Self.isRunning(pid) else { continue }
                if (try? FileManager.default.removeItem(at: url.appendingPathComponent(name))) != nil { removed += 1 }
            }
        }
        return removed
    }

    private static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }
}
