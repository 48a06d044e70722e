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
import PhotomillTestSupport
import Testing

@testable import PhotoProcessing

/// The command-line tools the RAW tests take their expected values from.
enum RawCorpus {
    static let toolsInstalled = ["exiftool", "vips", "vipsheader", "dcraw_emu", "raw-identify"].allSatisfy(
        Tool.isAvailable
    )
    static let toolsMessage: Comment = "exiftool, libvips-tools or libraw-bin is not installed"
}

enum RawTestImages {
    /// `RawDecoder.picture` on the bytes of the file at `url`.
    static func decode(
        _ url: URL,
        longestSide: Int,
        pixelLimit: Int = 200_000_000
    ) throws -> Result<VipsImageRef, ProcessingError> {
        let bytes = try Data(contentsOf: url)
        return decode(bytes, path: url.path, longestSide: longestSide, pixelLimit: pixelLimit)
    }

    /// The format is what `MediaFormat` makes of the bytes, as `PhotoProcessor` decides it.
    static func decode(
        _ bytes: Data,
        path: String,
        longestSide: Int,
        pixelLimit: Int = 200_000_000
    ) -> Result<VipsImageRef, ProcessingError> {
        let format =
            MediaFormat(
                sniffing: Array(bytes.prefix(MediaFormat.headLength)),
                fileExtension: (path as NSString).pathExtension
            ) ?? .dng
        return bytes.withUnsafeBytes { buffer in
            Result { () throws(ProcessingError) in
                try RawDecoder.picture(
                    of: .memory(buffer),
                    format: format,
                    path: path,
                    longestSide: longestSide,
                    pixelLimit: pixelLimit
                )
            }
        }
    }

    /// An image file written by a command-line tool, decoded into memory.
    static func load(_ path: String) throws -> VipsImageRef {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        return try bytes.withUnsafeBytes { buffer in
            let image = try VipsImageRef.header(of: buffer)
            return try VipsImageRef.fromPixels(
                image.pixels(),
                width: image.width,
                height: image.height,
                bands: image.bands
            )
        }
    }

    /// Mean absolute difference over all samples of two images of the same size.
    static func meanAbsoluteDifference(_ a: VipsImageRef, _ b: VipsImageRef) throws -> Double {
        try #require(
            a.width == b.width && a.height == b.height && a.bands == b.bands,
            "\(a.width)×\(a.height)×\(a.bands) against \(b.width)×\(b.height)×\(b.bands)"
        )
        let (p, q) = (try a.pixels(), try b.pixels())
        let total = zip(p, q).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(p.count)
    }

    /// Runs a shell command line (for tools whose binary output goes to a file).
    static func shell(_ command: String) throws {
        let result = try Tool.run("sh", ["-c", command])
        try #require(result.status == 0, "\(command) exited \(result.status)")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
