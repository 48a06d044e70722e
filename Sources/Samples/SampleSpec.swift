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
import PhotoProcessing
import PhotomillCore

/// How a sample is encoded. JPEG carries EXIF written by `ExifWriter`; PNG (eXIf chunk)
/// and HEIC (HEVC through libheif's x265 encoder, which Debian 12 ships) carry it through
/// libvips; TIFF is written here, since libvips' TIFF writer drops EXIF.
public enum SampleFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg, png, tiff, heic

    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .tiff: "tif"
        case .heic: "heic"
        }
    }
}

/// One sample file: what it is called, what it contains and what a reader should find.
public struct SampleSpec: Sendable, Hashable, Codable {
    /// File name, no folder: "IMG_0001.jpg".
    public var file: String
    /// The container; broken files are named and listed as JPEG.
    public var format: SampleFormat
    /// Stored pixel size (for orientations 5…8 the upright image is height × width);
    /// 0 for broken files with no image in them.
    public var width: Int
    public var height: Int
    /// EXIF orientation, 1…8: what a viewer applies to the stored pixels.
    public var orientation: Int
    /// What the file's EXIF holds, as a reader such as exiftool reports it.
    public var exif: ExifFields
    /// The words printed on a text page, sentences separated by single spaces (the
    /// page wraps them into lines, so compare with whitespace collapsed).
    public var text: String?
    /// nil for a good file; otherwise how it is broken: "truncated" (the first 40% of
    /// a good JPEG), "garbled" (a JPEG's first marker, then text), "text" (a text file
    /// named .jpg) or "empty" (zero bytes).
    public var broken: String?
    /// For a file named .jpg that is not media at all ("text", "empty"): the error class
    /// the scan fails its tasks with at once (`not-an-image`, `empty`; no worker sees it).
    /// Absent for the others.
    public var scanFails: String?
    /// Seed of the picture (see `SampleScene`).
    public var scene: UInt64

    public init(
        file: String,
        format: SampleFormat,
        width: Int,
        height: Int,
        orientation: Int = 1,
        exif: ExifFields = ExifFields(),
        text: String? = nil,
        broken: String? = nil,
        scene: UInt64 = 0
    ) {
        self.file = file
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
        self.exif = exif
        self.text = text
        self.broken = broken
        self.scene = scene
    }

    /// The size as a viewer shows it.
    public var uprightSize: (width: Int, height: Int) {
        orientation >= 5 ? (height, width) : (width, height)
    }
}

/// The contents of `samples.json`.
public struct SampleManifest: Sendable, Hashable, Codable {
    public var seed: UInt64
    public var files: [SampleSpec]

    public init(seed: UInt64, files: [SampleSpec]) {
        self.seed = seed
        self.files = files
    }

    public static let fileName = "samples.json"

    public static func read(from directory: URL) throws -> SampleManifest {
        let url = directory.appendingPathComponent(fileName)
        do {
            return try JSONDecoder().decode(SampleManifest.self, from: RegularFile.contents(of: url.path))
        } catch {
            throw SampleError(file: url.path, message: "cannot read the sample list: \(error)")
        }
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        // Sorted keys and pretty printing make the file diffable and the same bytes
        // for the same seed.
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// A sample could not be made or written; names the file and the cause.
public struct SampleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Path or file name, when the failure concerns one file.
    public var file: String?
    public var message: String

    public init(file: String?, message: String) {
        self.file = file
        self.message = message
    }

    public var description: String { file.map { "\($0): \(message)" } ?? message }
}
