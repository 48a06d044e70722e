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
    /// Records what the walk found since the last flush, in one transaction: the files
    /// the catalog does not know unchanged are read (their first bytes) and recorded; the
    /// unchanged are only counted; those that may still be being written go to the watcher
    /// to settle; the excluded are marked.
    func flush() throws(CatalogError) {
        if unchangedInOrder > 0 {
            var summary = ScanSummary()
            summary.unchanged = unchangedInOrder
            unchangedInOrder = 0
            add(summary)
        }
        if !excludedBatch.isEmpty {
            var summary = ScanSummary()
            for entry in excludedBatch {
                summary.excluded += try catalog.markExcluded(
                    entry.path,
                    rule: entry.rule,
                    isFolder: entry.isFolder,
                    now: WallClock.now()
                )
            }
            excludedBatch.removeAll()
            if summary.excluded > 0 {
                logger.notice("photos now excluded, treated as missing", metadata: ["photos": "\(summary.excluded)"])
            }
            add(summary)
        }
        guard !batch.isEmpty else { return }
        defer { batch.removeAll(keepingCapacity: true) }
        let known = try catalog.knownFiles(batch.map(\.path))
        var files: [ScannedFile] = []
        var fresh: [String] = []
        var freshNew: Set<String> = []
        var summary = ScanSummary()
        files.reserveCapacity(batch.count)
        for found in batch {
            let photo = known.photos[found.path]
            if let photo { seen.insert(photo.id) }
            if let skip = found.skip {
                // A file left out: written only when it is new or changed.
                if known.skipped[found.path] == found.stamp && photo == nil {
                    summary.skipped += 1
                } else {
                    files.append(
                        ScannedFile(
                            path: found.path,
                            size: found.stamp.size,
                            mtimeNs: found.stamp.mtimeNs,
                            recognition: .skipped(skip.reason, detail: skip.detail)
                        )
                    )
                }
                continue
            }
            let unsettled = unsettledPaths.contains(found.path)
            let isFresh = freshAfterNs.map { !unsettled && max(found.stamp.mtimeNs, found.ctimeNs) > $0 } ?? false
            if isFresh, watcher != nil, let photo,
                !photo.isClean(found.stamp, ctimeNs: found.ctimeNs, sidecar: found.sidecar)
            {
                // Changed within the settle window: maybe still being written. It settles first.
                fresh.append(found.path)
                continue
            }
            if let photo, !unsettled, photo.isClean(found.stamp, ctimeNs: found.ctimeNs, sidecar: found.sidecar) {
                summary.unchanged += 1
                continue
            }
            let recognition: ScannedFile.Recognition
            if let photo, photo.isUnchanged(found.stamp, skipped: false),
                photo.ctimeNs == nil || photo.ctimeNs == found.ctimeNs
                    || (photo.md5 != nil && Self.md5(of: found.path) == photo.md5)
            {
                // Same size and mtime, and the same change time or (only it moved: a chmod,
                // a link, a rewrite with its mtime put back) the same content.
                recognition = .unchanged
            } else if known.skipped[found.path] == found.stamp && photo == nil {
                seenSkipped.insert(found.path)
                recognition = .unchanged
            } else {
                do {
                    recognition = Self.recognise(found, format: try FileRecognition.of(path: found.path))
                } catch {
                    try unreadable(found.path, reason: error.cause, gone: error.isGone)
                    continue
                }
            }
            // Left out by its content: found, so not forgotten at the walk's end.
            if case .skipped = recognition { seenSkipped.insert(found.path) }
            var file = ScannedFile(
                path: found.path,
                size: found.stamp.size,
                mtimeNs: found.stamp.mtimeNs,
                ctimeNs: found.ctimeNs,
                recognition: recognition,
                sidecar: found.sidecar
            )
            file.unsettled = unsettled
            if isFresh && watcher != nil && photo == nil { freshNew.insert(found.path) }
            files.append(file)
        }
        add(summary)
        try findMoves(&files, known: known)
        // A new path changed within the window settles first, unless it is a photo that moved
        // (its whole content, by its MD5, is that photo's: nothing is being written): a
        // renamed file has a new ctime, and its old path must not be reported missing.
        fresh += files.filter { freshNew.contains($0.path) && $0.movedFrom == nil }.map(\.path)
        files.removeAll { freshNew.contains($0.path) && $0.movedFrom == nil }
        watcher?.track(fresh)
        changedPhotos += files.compactMap(\.movedFrom)
        let recorded = try catalog.record(files, kinds: kinds, now: WallClock.now())
        if recorded.failed > 0 {
            logger.warning(
                "files named as photos, RAW or videos that are empty or not media: failed (`photomill failed` lists them)",
                metadata: ["files": "\(recorded.failed)"]
            )
        }
        add(recorded)
    }

    /// What a file read is for the catalog: media, a sidecar with no partner or anything
    /// else not named as media (skipped), or a file named as media that is not (failed).
    static func recognise(_ found: Found, format recognition: FileRecognition) -> ScannedFile.Recognition {
        if case .media(let format) = recognition { return .media(format) }
        let name = (found.path as NSString).lastPathComponent
        guard MediaNames.isMediaName(name) else { return .skipped(.notMedia) }
        let display = PathBytes.display(found.path)
        let named = "." + (name as NSString).pathExtension
        if found.stamp.size == 0 {
            return .failed(.empty, message: "\(display): the file is empty (0 bytes), though its name says \(named)")
        }
        return .failed(
            .notAnImage,
            message:
                "\(display): not a photo, RAW or video, though its name says \(named): \(found.stamp.size) bytes of no known format"
        )
    }
}
