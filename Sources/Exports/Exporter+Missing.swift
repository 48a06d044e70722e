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

import Catalog
import Foundation
import PhotomillCore

extension Exporter {
    /// Exports the photos whose plists or thumbnail file are missing: those a coordinator
    /// killed between its commit and its export had committed. Costs one stat per file,
    /// no image data is read for photos whose files are there.
    @discardableResult
    public func exportMissing() throws -> Summary {
        var summary = Summary()
        var after: Int64 = 0
        let files = FileManager.default
        while true {
            let page = try catalog.exportKeys(afterPhoto: after, limit: 2000)
            guard let last = page.last else { break }
            let missing = page.filter { key in
                !files.fileExists(atPath: root.appendingPathComponent("metadata/\(key.md5).plist").path)
                    || !files.fileExists(atPath: root.appendingPathComponent("photos/\(key.photoId).plist").path)
                    || (key.hasThumbnail
                        && !files.fileExists(atPath: root.appendingPathComponent("thumbs/\(key.md5).jpg").path))
            }
            if !missing.isEmpty {
                let written = try export(photoIds: missing.map(\.photoId))
                summary.photos += written.photos
                summary.written += written.written
                summary.unchanged += written.unchanged
            }
            after = last.photoId
        }
        return summary
    }
}
