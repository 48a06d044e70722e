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
import Crypto
import Foundation
import Logging
import PhotomillCore

extension Scanner {
    /// Finds, among the new media files of a batch, the photos that moved: a new file of
    /// the size of a hashed photo that left its path (marked missing, or no longer there)
    /// is that photo when its MD5 is the photo's. Only such files are read, once each; the
    /// coordinator hashes bytes, it never decodes them. The photo then takes the new path
    /// with its results (`Catalog.record`), and the old path is not reported missing.
    /// A file the watcher saw renamed (`moveHints`) is its photo without being read.
    func findMoves(
        _ files: inout [ScannedFile],
        known: (photos: [String: KnownFile], skipped: [String: FileStamp])
    ) throws(CatalogError) {
        var fresh = files.indices.filter { index in
            guard case .media = files[index].recognition else { return false }
            return known.photos[files[index].path] == nil && known.skipped[files[index].path] == nil
        }
        fresh.removeAll { index in
            guard let photo = moveHints[files[index].path], claimed.insert(photo).inserted else { return false }
            seen.insert(photo)
            files[index].movedFrom = photo
            return true
        }
        guard !fresh.isEmpty else { return }
        let candidates = try catalog.moveCandidates(sizes: Set(fresh.map { files[$0].size }))
        for index in fresh {
            let left = (candidates[files[index].size] ?? []).filter {
                !claimed.contains($0.id) && ($0.missing || Self.isGone($0.path))
            }
            guard !left.isEmpty, let md5 = Self.md5(of: files[index].path) else { continue }
            // Of copies that all left, the one of the same name moved (into another folder).
            let name = (files[index].path as NSString).lastPathComponent
            let same = left.filter { $0.md5 == md5 }
            guard let photo = same.first(where: { ($0.path as NSString).lastPathComponent == name }) ?? same.first
            else { continue }
            claimed.insert(photo.id)
            seen.insert(photo.id)
            files[index].movedFrom = photo.id
            logger.info(
                "a photo moved",
                metadata: ["photo.id": "\(photo.id)", "from": "\(photo.path)", "photo.path": "\(files[index].path)"]
            )
        }
    }

    private static func isGone(_ path: String) -> Bool {
        var info = stat()
        return PathBytes.withCString(path, { lstat($0, &info) }) != 0 && (errno == ENOENT || errno == ENOTDIR)
    }

    /// The MD5 of the file's bytes, read in 1 MiB pieces; nil when it cannot be read.
    static func md5(of path: String) -> String? {
        var hasher = Insecure.MD5()
        do {
            try RegularFile(path: path).forEachPiece { hasher.update(bufferPointer: $0) }
        } catch {
            return nil
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
