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

import CFFmpeg
import CTesseract
import CVips
import Foundation

/// The versions of the C libraries this process runs with, as each library reports
/// itself at run time (not the headers it was built against): `photomill --version`.
public enum ProcessingLibraries {
    /// "8.14.1".
    public static var vips: String { "\(vips_version(0)).\(vips_version(1)).\(vips_version(2))" }

    /// "5.3.0".
    public static var tesseract: String { String(cString: TessVersion()) }

    /// "0.20.2".
    public static var libRaw: String { LibRawCameras.version }

    /// "0.27.6".
    public static var exiv2: String { Exiv2Metadata.version }

    /// FFmpeg's release as libavutil names it ("5.1.6-0+deb12u1"), and each library
    /// photomill uses, which may come from other builds: "libavformat 59.27.100", ….
    public static var ffmpeg: (release: String, libraries: [String]) {
        let libraries = [
            ("libavformat", avformat_version()), ("libavcodec", avcodec_version()),
            ("libswscale", swscale_version()), ("libavutil", avutil_version()),
        ]
        // AV_VERSION_INT: major << 16 | minor << 8 | micro.
        return (
            String(cString: av_version_info()),
            libraries.map { "\($0.0) \($0.1 >> 16).\($0.1 >> 8 & 0xFF).\($0.1 & 0xFF)" }
        )
    }

    /// libexif has no function that tells its version (nor a header macro): the file the
    /// dynamic loader mapped stands in, e.g. /usr/lib/x86_64-linux-gnu/libexif.so.12.3.4,
    /// whose name carries the library's ABI revision. Nil if it is not mapped.
    public static var exifFile: String? { mappedFile(named: "libexif.so") }

    /// The first file in /proc/self/maps whose name starts with `prefix`.
    static func mappedFile(named prefix: String) -> String? {
        // To its end: String(contentsOfFile:) missed libexif here (the file reports size 0).
        guard let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            // "address perms offset dev inode path": only the path has a slash.
            guard let slash = line.firstIndex(of: "/") else { continue }
            let file = String(line[slash...])
            if file.split(separator: "/").last?.hasPrefix(prefix) == true { return file }
        }
        return nil
    }
}
