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

/// `MetadataReader` on ../shared/corpus against what exiftool reports there (the
/// manifests), called as `PhotoProcessor` calls it; and on hostile variants of those files.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct MetadataCorpusTests {
    /// photos/: the fields of manifest.json, with CorpusTests' rules.
    @Test func photosAgreeWithExiftool() throws {
        let manifest = try MetadataCorpus.manifest("manifest.json")
        var tally = ExiftoolTally()
        for file in manifest.files where file.kind != "broken" {
            let metadata = try #require(try MetadataCorpus.metadata(of: file.path), "\(file.path)")
            for (field, expected) in file.exiftool where MetadataCorpus.fields.contains(field) {
                tally.compare(file.path, field, expected, MetadataCorpus.value(field, of: metadata))
            }
        }
        print("metadata, photos: \(tally.summary)")
        #expect(tally.compared == 348)
        #expect(tally.rate >= 0.99, "\(tally.summary)")
    }

    /// formats/: the RAW and HEIC files; exiftool's invalid values (0000 dates, 0,0 GPS)
    /// are not compared.
    @Test func rawAndHEICAgreeWithExiftool() throws {
        let manifest = try MetadataCorpus.manifest("manifest-formats.json")
        var tally = ExiftoolTally()
        let fields = [
            "Make", "Model", "LensModel", "DateTimeOriginal", "OffsetTimeOriginal", "Orientation",
            "GPSLatitude", "GPSLongitude", "FNumber", "ExposureTime", "ISO", "FocalLength", "ImageSize",
        ]
        var files = 0
        for file in manifest.files {
            guard let metadata = try MetadataCorpus.metadata(of: file.path),
                metadata.mediaType == .raw || file.path.lowercased().hasSuffix(".heic")
            else { continue }
            files += 1
            for field in fields {
                guard let expected = file.exiftool[field] else { continue }
                if case .text(let text) = expected, text.hasPrefix("0000") { continue }
                if field.hasPrefix("GPS"), case .number(0) = file.exiftool["GPSLatitude"],
                    case .number(0) = file.exiftool["GPSLongitude"]
                {
                    continue
                }
                tally.compare(file.path, field, expected, MetadataCorpus.value(field, of: metadata))
            }
        }
        print("metadata, RAW and HEIC: \(tally.summary)")
        #expect(files == 8)
        #expect(tally.rate >= 0.99, "\(tally.summary)")
    }

    /// Seeded truncations and bit flips of every corpus file, read as what the original
    /// was: the reader returns (no crash, no hang) and keeps the media type.
    @Test func hostileBytesNeverCrash() throws {
        var generator = SplitMix64(seed: 0x6D65_7461)
        let folders = ["photos", "formats", "formats2"].map { Corpus.root.appendingPathComponent($0) }
        for folder in folders {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                let original = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
                guard
                    let format = MediaFormat(
                        sniffing: Array(original.prefix(MediaFormat.headLength)),
                        fileExtension: (name as NSString).pathExtension
                    ),
                    format.mediaType != .video
                else { continue }
                for round in 0..<48 {
                    var bytes = original
                    if round % 2 == 0 {
                        bytes.removeSubrange(generator.int(in: 0...bytes.count)...)
                    } else {
                        // Flips among the first 64 KiB, where the structures are.
                        let span = min(bytes.count, 65536)
                        for _ in 0..<generator.int(in: 1...32) where span > 0 {
                            bytes[generator.int(in: 0...span - 1)] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
                        }
                    }
                    // A result with the media type, or a classified failure naming the file.
                    do {
                        let metadata = try Fixtures.metadata(bytes, format: format, path: name)
                        #expect(metadata.mediaType == format.mediaType, "\(name) round \(round)")
                    } catch {
                        #expect(
                            error.errorClass == .corrupt && error.message.hasPrefix(name),
                            "\(name) round \(round): \(error)"
                        )
                    }
                }
            }
        }
    }
}

/// ../shared/corpus and how the tests read it.
enum MetadataCorpus {
    struct Manifest: Decodable {
        struct File: Decodable {
            let path: String
            let kind: String?
            let exiftool: [String: ExiftoolValue]
        }
        let files: [File]
    }

    static func manifest(_ name: String) throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: Corpus.root.appendingPathComponent(name)))
    }

    /// As `PhotoProcessor` does it: the format by content, then the reader. Nil for files
    /// that are not media, for videos, and for files with no readable metadata.
    static func metadata(of path: String) throws -> PhotoMetadata? {
        let url = Corpus.root.appendingPathComponent(path)
        let data = [UInt8](try Data(contentsOf: url))
        guard
            let format = MediaFormat(
                sniffing: Array(data.prefix(MediaFormat.headLength)),
                fileExtension: url.pathExtension
            ),
            format.mediaType != .video
        else { return nil }
        return try? Fixtures.metadata(data, format: format, path: path)
    }

    /// The exiftool fields photomill reports.
    static let fields: Set<String> = [
        "DateTimeOriginal", "OffsetTimeOriginal", "Make", "Model", "LensModel", "Orientation", "GPSLatitude",
        "GPSLongitude", "FNumber", "ExposureTime", "ISO", "FocalLength", "ImageWidth", "ImageHeight", "ImageSize",
    ]

    /// Our value for one of `fields`; nil when we have none.
    static func value(_ field: String, of metadata: PhotoMetadata) -> Any? {
        switch field {
        case "DateTimeOriginal": metadata.dateTaken
        case "OffsetTimeOriginal": metadata.dateTaken.flatMap { $0.count > 19 ? String($0.dropFirst(19)) : nil }
        case "Make": metadata.cameraMake
        case "Model": metadata.cameraModel
        case "LensModel": metadata.lensModel
        case "Orientation": metadata.orientation
        case "GPSLatitude": metadata.gpsLatitude
        case "GPSLongitude": metadata.gpsLongitude
        case "FNumber": metadata.aperture
        case "ExposureTime": metadata.shutterSpeed
        case "ISO": metadata.iso
        case "FocalLength": metadata.focalLength
        case "ImageWidth": metadata.pixelWidth
        case "ImageHeight": metadata.pixelHeight
        case "ImageSize": metadata.pixelWidth.flatMap { w in metadata.pixelHeight.map { "\(w) \($0)" } }
        default: nil
        }
    }
}
