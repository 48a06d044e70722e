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

/// The file name extensions that say "photo", "camera RAW" or "video": a file so named
/// whose content is empty or none of them is a failure the user is told of by name (a
/// phone sync that stopped half way leaves exactly such files), not a skip. What a file
/// *is* still comes from its content (`MediaFormat`); the name only decides whether one
/// that is not media was meant to be. The list is wider than what photomill reads: a
/// format it does not know, named as such, is `not-an-image` too (the user learns which).
public enum MediaNames {
    public static let photo: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "gif", "tif", "tiff", "webp", "bmp", "heic", "heif", "hif", "avif", "jxl",
    ]
    public static let raw: Set<String> = [
        "cr2", "cr3", "crw", "nef", "nrw", "arw", "sr2", "srf", "dng", "raf", "orf", "rw2", "pef", "srw", "mrw", "x3f",
        "iiq", "3fr", "fff", "erf", "kdc", "dcr", "mos", "mef", "rwl", "raw",
    ]
    public static let video: Set<String> = [
        "mov", "mp4", "m4v", "3gp", "3g2", "avi", "mkv", "webm", "mts", "m2ts", "mpg", "mpeg", "wmv", "lrv", "insv",
    ]

    /// Whether a file of this name is meant to be a photo, RAW or video.
    public static func isMediaName(_ name: String) -> Bool {
        let ext = (name as NSString).pathExtension.lowercased()
        return photo.contains(ext) || raw.contains(ext) || video.contains(ext)
    }
}
