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

import PhotomillCore

/// The three directories photomill reads EXIF fields from — IFD0, the EXIF IFD and the
/// GPS IFD — found with the bounds-checked TIFF reader, each with the structure its
/// offsets count in. Usually all three live in one TIFF structure; a CR3 keeps each in a
/// box of its own.
struct ExifDirectories {
    struct Directory {
        let tiff: TIFFStructure
        let entries: TIFFDirectoryEntries
    }

    var ifd0: Directory?
    var exif: Directory?
    var gps: Directory?

    /// IFD0 of `tiff` and the EXIF and GPS directories it points to. A pointer outside the
    /// bytes leaves that directory absent and the others whole, as exiftool does (it warns
    /// and reads on); libexif 0.6.24 instead stops reading the directory that holds such
    /// a pointer.
    init(tiff: TIFFStructure) {
        guard let zero = tiff.directory(at: tiff.firstDirectoryOffset) else { return }
        ifd0 = Directory(tiff: tiff, entries: zero)
        exif = Self.child(of: zero, tag: 0x8769, in: tiff)
        gps = Self.child(of: zero, tag: 0x8825, in: tiff)
    }

    init(ifd0: Directory?, exif: Directory?, gps: Directory?) {
        self.ifd0 = ifd0
        self.exif = exif
        self.gps = gps
    }

    /// The first directory of a TIFF structure that has nothing else (a CR3's CMT boxes).
    static func first(in tiff: TIFFStructure?) -> Directory? {
        guard let tiff, let entries = tiff.directory(at: tiff.firstDirectoryOffset) else { return nil }
        return Directory(tiff: tiff, entries: entries)
    }

    private static func child(of parent: TIFFDirectoryEntries, tag: UInt16, in tiff: TIFFStructure) -> Directory? {
        guard let pointer = parent.first(tag), let entries = tiff.directory(at: tiff.offsetField(of: pointer)) else {
            return nil
        }
        return Directory(tiff: tiff, entries: entries)
    }

    /// The Make in IFD0, as written (for choosing a maker-note reader).
    var make: String? { ifd0.flatMap { directory in directory.entries.first(0x010F).flatMap(directory.tiff.string) } }
}
