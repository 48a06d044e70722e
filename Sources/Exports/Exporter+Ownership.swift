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

extension Exporter {
    /// The exports go only into a folder that is photomill's: missing or empty, or holding
    /// photomill's `CACHEDIR.TAG` or `manifest.plist`. Any other folder (a photo folder, a
    /// home folder) is refused before a file is written, so the exports never replace a
    /// file of someone else's, and `removeStale` only ever removes photomill's own files.
    static func checkOwnership(of root: URL) throws(ExportError) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root.path), !names.isEmpty else {
            return
        }
        let tag = try? RegularFile.contents(of: root.appendingPathComponent(CacheDirectoryTag.name).path, upTo: 4096)
        if let tag, String(decoding: tag, as: UTF8.self).contains("created by photomill") { return }
        if let manifest = try? RegularFile.contents(of: root.appendingPathComponent("manifest.plist").path),
            (try? PropertyListDecoder().decode(ExportManifest.self, from: manifest)) != nil
        {
            return
        }
        throw ExportError(
            path: root.path,
            message:
                "holds files that are not photomill's exports (no photomill CACHEDIR.TAG or manifest.plist); choose a new or empty folder"
        )
    }

    /// Removes, under `metadata/`, `thumbs/` and `photos/`, the files named as photomill
    /// names them that this pass did not export: those of photos forgotten, missing or
    /// changed since. Files named otherwise are left alone. Returns how many went.
    func removeStale(keeping exported: ExportedNames) -> Int {
        var removed = 0
        for folder in Self.folders {
            let url = root.appendingPathComponent(folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
                let stem = (name as NSString).deletingPathExtension
                let ext = (name as NSString).pathExtension
                let stale: Bool
                switch (folder, ext) {
                case ("metadata", "plist"): stale = Self.isMD5(stem) && !exported.contents.contains(stem)
                case ("thumbs", "jpg"): stale = Self.isMD5(stem) && !exported.thumbnails.contains(stem)
                case ("photos", "plist"): stale = Int64(stem).map { !exported.photos.contains($0) } ?? false
                default: stale = false
                }
                if stale, unlink(url.appendingPathComponent(name).path) == 0 { removed += 1 }
            }
        }
        return removed
    }

    private static func isMD5(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
