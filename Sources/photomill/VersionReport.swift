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
import PhotoProcessing
import PhotomillCore
import ZeroMQ

/// What `photomill --version` prints: the version, the commit built (BuildInfo, written
/// by the BuildCommit plugin), and each C library as it reports itself at run time, one
/// `name version` line each, so that a bug report or a worker host's journal says exactly
/// what ran. The Debian package takes its version from the first line.
enum VersionReport {
    /// READY's `software_version`: the version and the commit.
    static let software = PhotomillVersion.software(commit: BuildInfo.commit, dirty: BuildInfo.dirty)

    static var text: String {
        let zmq = ZMQ.version
        let ffmpeg = ProcessingLibraries.ffmpeg
        let commit = BuildInfo.commit.map { $0 + (BuildInfo.dirty ? " (with uncommitted changes)" : "") }
        let exif = ProcessingLibraries.exifFile.map { "loaded from \($0)" } ?? "not loaded"
        return """
            photomill \(PhotomillVersion.number)
            commit \(commit ?? "unknown (built outside a git checkout)")
            libzmq \(zmq.major).\(zmq.minor).\(zmq.patch)
            libvips \(ProcessingLibraries.vips)
            exiv2 \(ProcessingLibraries.exiv2)
            libexif unknown (libexif has no version function; \(exif))
            tesseract \(ProcessingLibraries.tesseract)
            SQLite \(Catalog.sqliteVersion)
            LibRaw \(ProcessingLibraries.libRaw)
            FFmpeg \(ffmpeg.release) (\(ffmpeg.libraries.joined(separator: ", ")))
            """
    }
}
