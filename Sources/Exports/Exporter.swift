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

/// Writes the exports under a root folder, from the catalog alone:
/// `metadata/{md5}.plist` (binary plist, what a content says), `thumbs/{md5}.jpg`,
/// `photos/{photoId}.plist` (what belongs to one file), `manifest.plist`, and a
/// `CACHEDIR.TAG`, which keeps the scan (and backup tools that honour it) out.
/// Each file is written atomically (temporary file, then rename) and only when its
/// content differs from what is already there, so re-exporting an unchanged catalog
/// writes nothing and a reader never sees a partial file. A content's files come from one
/// photo, always the same (`Catalog.contentOwners`), so copies never take turns at them.
public final class Exporter: Sendable {
    public let root: URL
    public let stripGPS: Bool
    let catalog: Catalog

    public struct Summary: Sendable, Hashable {
        public var photos = 0
        public var written = 0
        public var unchanged = 0
        /// Files of photos no longer exported (forgotten, missing, changed), removed.
        public var removed = 0

        mutating func count(_ wrote: Bool) {
            if wrote { written += 1 } else { unchanged += 1 }
        }
    }

    static let folders = ["metadata", "thumbs", "photos"]

    /// Refuses a folder that holds anything but photomill's exports (`Exporter+Ownership`).
    public init(catalog: Catalog, root: URL, stripGPS: Bool = false) throws(ExportError) {
        self.catalog = catalog
        self.root = root
        self.stripGPS = stripGPS
        try Self.checkOwnership(of: root)
        for folder in Self.folders {
            let url = root.appendingPathComponent(folder)
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } catch {
                throw ExportError(
                    path: url.path,
                    message:
                        "cannot create the export folder: \(error.fileSystemReason); choose a folder this user may write"
                )
            }
        }
        try Self.write(Data(CacheDirectoryTag.contents.utf8), to: root.appendingPathComponent(CacheDirectoryTag.name))
        removeLeftovers()
    }

    /// Exports the given photos (those with a content hash; others have nothing to name
    /// their files by yet).
    public func export(photoIds: [Int64]) throws -> Summary {
        var summary = Summary()
        for chunk in stride(from: 0, to: photoIds.count, by: 500).map({
            Array(photoIds[$0..<min($0 + 500, photoIds.count)])
        }) {
            var names = ExportedNames()
            try write(catalog.exportRecords(ids: chunk), into: &summary, names: &names)
        }
        return summary
    }

    /// Exports every photo of the catalog, page by page, then the manifest; then removes
    /// the files of photos no longer exported, so that nothing stale (a forgotten photo's
    /// place, when GPS is stripped now) stays under the root.
    public func exportAll(progress: ((Int) -> Void)? = nil) throws -> Summary {
        var summary = Summary()
        var names = ExportedNames()
        var after: Int64 = 0
        while true {
            let page = try catalog.exportRecords(afterPhoto: after, limit: 500)
            guard let last = page.last else { break }
            try write(page, into: &summary, names: &names)
            after = last.photoId
            progress?(summary.photos)
        }
        summary.count(try writeManifest())
        summary.removed = removeStale(keeping: names)
        return summary
    }

    private func write(_ records: [ExportRecord], into summary: inout Summary, names: inout ExportedNames) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let owners = try catalog.contentOwners(md5s: Set(records.map(\.md5)))
        var byId = Dictionary(records.map { ($0.photoId, $0) }) { first, _ in first }
        let absent = Set(owners.values.flatMap { [$0.plist, $0.thumbnail].compactMap { $0 } }).subtracting(byId.keys)
        if !absent.isEmpty {
            for record in try catalog.exportRecords(ids: Array(absent)) { byId[record.photoId] = record }
        }
        for record in records {
            summary.photos += 1
            let file = try encoder.encode(ExportedFile(record, stripGPS: stripGPS))
            summary.count(try Self.write(file, to: root.appendingPathComponent("photos/\(record.photoId).plist")))
            names.photos.insert(record.photoId)
        }
        for (md5, owner) in owners.sorted(by: { $0.key < $1.key }) {
            if let record = byId[owner.plist], names.contents.insert(md5).inserted {
                let plist = try encoder.encode(ExportedPhoto(record, stripGPS: stripGPS))
                summary.count(try Self.write(plist, to: root.appendingPathComponent("metadata/\(md5).plist")))
            }
            if let id = owner.thumbnail, let jpeg = byId[id]?.thumbnail, names.thumbnails.insert(md5).inserted {
                summary.count(try Self.write(jpeg, to: root.appendingPathComponent("thumbs/\(md5).jpg")))
            }
        }
    }

    /// `manifest.plist`: every exported photo with its source path. Written only when an
    /// entry changed (its `generatedAt` is when that was). Returns whether it wrote.
    @discardableResult
    public func writeManifest() throws -> Bool {
        var entries: [ExportManifest.Entry] = []
        var after: Int64 = 0
        while true {
            let page = try catalog.exportKeys(afterPhoto: after, limit: 2000)
            guard let last = page.last else { break }
            entries += page.map {
                .init(md5: $0.md5, path: $0.path, hasThumbnail: $0.hasThumbnail, photoId: $0.photoId)
            }
            after = last.photoId
        }
        let url = root.appendingPathComponent("manifest.plist")
        if let existing = try? PropertyListDecoder().decode(
            ExportManifest.self,
            from: RegularFile.contents(of: url.path)
        ),
            existing.photos == entries, existing.gpsStripped == stripGPS,
            existing.formatVersion == ExportManifest.currentFormat
        {
            return false
        }
        let manifest = ExportManifest(generatedAt: Date().formatted(.iso8601), gpsStripped: stripGPS, photos: entries)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return try Self.write(try encoder.encode(manifest), to: url)
    }
}

/// What one pass exported, by file name.
struct ExportedNames {
    var contents: Set<String> = []
    var thumbnails: Set<String> = []
    var photos: Set<Int64> = []
}

extension Exporter {
    /// Atomically and only when the bytes differ (`AtomicFile`); whether it wrote.
    @discardableResult
    static func write(_ data: Data, to url: URL) throws(ExportError) -> Bool {
        do {
            return try AtomicFile.write(data, to: url, onlyIfChanged: true)
        } catch {
            throw ExportError(path: error.path, message: error.message)
        }
    }
}

public struct ExportError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let message: String
    public var description: String { "export \(path): \(message)" }
}
