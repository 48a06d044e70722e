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

/// Why the scan left a file or folder out (`skipped_files.reason`): nothing is left out
/// without one, and `photomill skipped` lists each (docs/operations.md, "What is skipped").
/// A file whose name says photo, RAW or video but whose content is not is no skip: it
/// fails, `empty` or `not-an-image`.
public enum SkipReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// Not a photo, RAW or video by its content, and not named as one.
    case notMedia = "not-media"
    /// Its name starts with "." (a folder: nothing under it is looked at).
    case hidden
    /// `--exclude` or a `.photomillignore` says so (`detail`: the pattern and where it is).
    case excluded
    /// A folder tagged as a cache (`CACHEDIR.TAG`), such as photomill's exports.
    case cacheFolder = "cache-folder"
    /// The catalog's own files, or the exports folder.
    case photomillFile = "photomill-file"
    /// A symbolic link to something outside every scanned folder (`detail`: its target).
    case linkOutside = "link-outside-roots"
    /// A symbolic link to a folder above it: followed, it would never end.
    case linkLoop = "link-loop"
    /// A symbolic link to nothing.
    case linkBroken = "link-broken"
    /// A named pipe, a socket or a device: never opened (opening a FIFO waits for a writer).
    case fifo, socket, device

    /// The reason in words, for `skipped` and `status`.
    public var words: String {
        switch self {
        case .notMedia: "not a photo, RAW or video"
        case .hidden: "hidden (name starts with a dot)"
        case .excluded: "excluded"
        case .cacheFolder: "a cache folder (CACHEDIR.TAG)"
        case .photomillFile: "photomill's own catalog or exports"
        case .linkOutside: "a symbolic link out of the scanned folders"
        case .linkLoop: "a symbolic link to a folder above it (a loop)"
        case .linkBroken: "a symbolic link to nothing"
        case .fifo: "a named pipe (FIFO), never opened"
        case .socket: "a socket, never opened"
        case .device: "a device, never opened"
        }
    }
}

/// One file or folder the scans left out, and why.
public struct SkippedFile: Sendable, Hashable, Codable {
    public var path: String
    public var reason: SkipReason
    /// The pattern that excluded it, or a link's target.
    public var detail: String?
    public var size: Int64
    /// When a scan last saw it (wall clock).
    public var scannedAt: Double

    public init(path: String, reason: SkipReason, detail: String?, size: Int64, scannedAt: Double) {
        self.path = path
        self.reason = reason
        self.detail = detail
        self.size = size
        self.scannedAt = scannedAt
    }
}
