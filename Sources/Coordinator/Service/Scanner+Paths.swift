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
import Logging
import PhotomillCore

extension Scanner {
    /// Paths looked at again (the watcher's settled changes, or an operator's): a file is
    /// recorded as it is now (with its folder's sidecars and rules), a folder walked, a
    /// `.photomillignore` read again (its folder walked when its rules changed), a path
    /// gone marked missing with what lay under it. An XMP sidecar stands for its photos.
    func scan(paths: [String], unsettled: Set<String>) throws(CatalogError) {
        var gone: [String] = []
        var folders: [String] = []
        var files: [String: Set<String>] = [:]
        var rulesChanged: Set<String> = []
        for path in Set(paths).sorted() where exclusions.current.root(of: path) != nil {
            let name = (path as NSString).lastPathComponent
            let parent = (path as NSString).deletingLastPathComponent
            if name == Exclusions.fileName {
                rulesChanged.insert(parent)
                continue
            }
            var info = stat()
            guard PathBytes.withCString(path, { lstat($0, &info) }) == 0 else {
                gone.append(path)
                // A sidecar gone: its photos lose it.
                if XMPSidecar.isXMPName(name) { files[parent, default: []].insert(name) }
                continue
            }
            let isFolder = info.st_mode & S_IFMT == S_IFDIR
            if let rule = exclusions.current.excludingRule(for: path, isFolder: isFolder) {
                excludedBatch.append((path, rule.description, isFolder))
            } else if isFolder {
                folders.append(path)
            } else {
                files[parent, default: []].insert(name)
            }
        }
        for folder in rulesChanged {
            let before = exclusions.current.files[folder]
            readIgnoreFile(in: folder, present: true)
            if exclusions.current.files[folder] != before {
                logger.info(
                    "a .photomillignore changed: its folder is scanned again",
                    metadata: ["folder": "\(folder)"]
                )
                folders.append(folder)
            }
        }
        beginWalk(fresh: false)
        unsettledPaths = unsettled
        defer { unsettledPaths = [] }
        let mode: WalkMode = watcher?.table == nil ? .none : .watch
        for (parent, names) in files.sorted(by: { $0.key < $1.key }) {
            guard case .success(let listing) = PathBytes.names(inFolder: parent) else { continue }
            let present = Set(listing)
            let sidecars = XMPSidecar.Index(names: listing)
            var visit: Set<String> = []
            for name in names {
                if XMPSidecar.isXMPName(name) {
                    // A sidecar (there or gone) stands for the photos it belongs to or belonged to.
                    let stem = FileName.stem(name)
                    visit.formUnion(listing.filter { $0 == stem || (FileName.stem($0) == stem && $0 != name) })
                    if !sidecars.isSidecar(name) && present.contains(name) { visit.insert(name) }
                } else if present.contains(name) {
                    visit.insert(name)
                }
            }
            for name in visit.sorted() {
                var info = stat()
                let path = Self.join(parent, name)
                if PathBytes.withCString(path, { lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR {
                    folders.append(path)
                    continue
                }
                try self.visit(name, in: parent, sidecars: sidecars, mode: mode, device: nil)
            }
        }
        try flush()
        // Nested folders are walked with the outermost.
        let outermost = Set(folders).filter { folder in !folders.contains { $0 != folder && folder.isPath(under: $0) } }
        for folder in outermost.sorted() { try walkSubtree(folder) }
        if !gone.isEmpty {
            var summary = ScanSummary()
            summary.missing = try catalog.markGone(gone, now: WallClock.now())
            add(summary)
        }
    }

    /// A rename the watcher saw whole. A folder: every photo under it takes its new path in
    /// one transaction, results kept, no task queued; then the folder is walked (it may now
    /// fall under other rules). A file: it is its photo, under the new path (no need to
    /// read it to know).
    func move(from: String, to: String, isFolder: Bool) throws(CatalogError) {
        if isFolder {
            let moved = try catalog.moveFolder(from: from, to: to, now: WallClock.now())
            if !moved.isEmpty {
                logger.info("a folder moved", metadata: ["from": "\(from)", "to": "\(to)", "photos": "\(moved.count)"])
                var summary = ScanSummary()
                summary.moved = moved.count
                add(summary)
                changedPhotos += moved
            }
            try walkSubtree(to, fresh: false)
        } else {
            if let photo = try catalog.knownFiles([from]).photos[from] { moveHints[to] = photo.id }
            defer { moveHints.removeAll() }
            try scan(paths: [to, from], unsettled: [])
        }
    }
}
