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
internal import GRDB
import PhotomillCore

/// A stored thumbnail as an HTTP answer: its entity tag, and its bytes unless the asker
/// holds them already.
public enum StoredThumbnail: Sendable, Hashable {
    case none
    /// The asker's copy is current (an HTTP 304).
    case unchanged(tag: String)
    case jpeg(Data, tag: String)
}

extension Catalog {
    /// The thumbnail of the photo at `path`. Its tag names the result it is (the photo, the
    /// time its thumbnail task last ended, the recipe), so it is read without the bytes,
    /// and the bytes only when `knownTags` (an `If-None-Match`'s) do not hold it.
    public func thumbnail(path: String, unless knownTags: Set<String> = []) throws(CatalogError) -> StoredThumbnail {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT p.id, th.recipe, t.updatedAt FROM photos p
                        JOIN thumbnails th ON th.photoId = p.id
                        LEFT JOIN tasks t ON t.photoId = p.id AND t.kind = ?
                        WHERE p.path = ?
                        """,
                    arguments: [Kind.thumbnail.rawValue, path]
                )
            else { return .none }
            let id: Int64 = row["id"]
            let recipe: String = row["recipe"]
            let ended: Double = row["updatedAt"] ?? 0
            let tag = "\"" + Self.fnv1a("\(id) \(ended.bitPattern) \(recipe)") + "\""
            if knownTags.contains(tag) { return .unchanged(tag: tag) }
            guard
                let jpeg = try Data.fetchOne(db, sql: "SELECT jpeg FROM thumbnails WHERE photoId = ?", arguments: [id])
            else {
                return .none
            }
            return .jpeg(jpeg, tag: tag)
        }
    }

    /// FNV-1a, 64 bits, in hex: a short tag, not a digest anyone relies on.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return String(hash, radix: 16)
    }
}
