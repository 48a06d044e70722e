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

/// A file found by the scanner, as stat(2) saw it, and what the scan made of it.
public struct ScannedFile: Sendable, Hashable {
    public var path: String
    public var size: Int64
    public var mtimeNs: Int64
    /// The change time (nil: not known): with size and mtime, what tells a changed file.
    public var ctimeNs: Int64?
    public var recognition: Recognition
    /// The photo's XMP sidecar (`NAME.EXT.xmp` or `NAME.xmp` beside it), if it has one.
    public var sidecar: Sidecar?
    /// A new path whose content is that of this photo, which left its old path: a move or
    /// a rename. The photo takes the new path and keeps its results.
    public var movedFrom: Int64?
    /// Processed before it settled: it was still changing after the settle bound.
    public var unsettled = false

    /// What the scan made of a file.
    public enum Recognition: Sendable, Hashable {
        /// Media of this format (read from its first bytes).
        case media(MediaFormat)
        /// Left out, for this reason (`detail`: the pattern, a link's target): listed, never a failure.
        case skipped(SkipReason, detail: String? = nil)
        /// Not read again: the catalog knows the file with this size and mtime
        /// (`Catalog.knownFiles`); its change time is recorded.
        case unchanged
        /// Named as a photo, RAW or video, but empty or not one: its tasks fail at once.
        case failed(ErrorClass, message: String)
    }

    public init(
        path: String,
        size: Int64,
        mtimeNs: Int64,
        ctimeNs: Int64? = nil,
        recognition: Recognition,
        sidecar: Sidecar? = nil,
        movedFrom: Int64? = nil
    ) {
        self.path = path
        self.size = size
        self.mtimeNs = mtimeNs
        self.ctimeNs = ctimeNs
        self.recognition = recognition
        self.sidecar = sidecar
        self.movedFrom = movedFrom
    }

    public var stamp: FileStamp { FileStamp(size: size, mtimeNs: mtimeNs) }
}

/// What the catalog already knows of a path, so that the scan reads only new and
/// changed files.
public struct KnownFile: Sendable, Hashable {
    /// The photo's id (so that the scan can tell, at its end, which photos it did not find).
    public var id: Int64
    public var stamp: FileStamp
    /// The change time the last scan saw; nil before migration v10-living-library.
    public var ctimeNs: Int64?
    /// The photo's format; nil for a skipped file, and for a photo recorded before
    /// formats were (a catalog of schema v3), which the scan must read once.
    public var format: MediaFormat?
    /// The MD5 of its content, once hashed: a file whose change time alone moved is
    /// compared by it.
    public var md5: String?
    public var missing = false
    public var sidecar: Sidecar?

    /// Whether the scan may leave the file unread: same size and mtime, and a format known
    /// (or known not to be media).
    public func isUnchanged(_ stamp: FileStamp, skipped: Bool) -> Bool {
        self.stamp == stamp && (skipped || format != nil)
    }

    /// Whether nothing about the photo needs writing: same size, mtime and change time,
    /// format known, present, the same sidecar.
    public func isClean(_ stamp: FileStamp, ctimeNs: Int64?, sidecar: Sidecar?) -> Bool {
        self.stamp == stamp && self.ctimeNs == ctimeNs && format != nil && !missing && self.sidecar == sidecar
    }
}

public struct ScanSummary: Sendable, Hashable, Codable {
    public var added = 0
    public var changed = 0
    public var unchanged = 0
    /// Files that are not media (docs/operations.md): counted, never failed.
    public var skipped = 0
    /// Photos whose sidecar appeared, changed or vanished: their metadata is re-run.
    public var sidecarsChanged = 0
    /// Tasks created or re-queued by this scan.
    public var queuedTasks = 0
    /// Photos found under a new path with the content they had (kept with their results).
    public var moved = 0
    /// Photos the scan no longer found: marked missing, their history kept.
    public var missing = 0
    /// Photos that became excluded (`--exclude`, `.photomillignore`): missing too.
    public var excluded = 0
    /// Files named as media that are empty or not media: failed at once.
    public var failed = 0

    public init() {}

    public static func + (lhs: ScanSummary, rhs: ScanSummary) -> ScanSummary {
        var sum = lhs
        sum.added += rhs.added
        sum.changed += rhs.changed
        sum.unchanged += rhs.unchanged
        sum.skipped += rhs.skipped
        sum.sidecarsChanged += rhs.sidecarsChanged
        sum.queuedTasks += rhs.queuedTasks
        sum.moved += rhs.moved
        sum.missing += rhs.missing
        sum.excluded += rhs.excluded
        sum.failed += rhs.failed
        return sum
    }
}
