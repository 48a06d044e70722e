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
import PhotomillTestSupport
import Testing

/// `photomill inspect --json` on the real photos of ../shared/corpus against the
/// corpus manifest, whose values come from exiftool.
@Suite(
    .ownThread,
    .enabled(if: Corpus.isAvailable, Corpus.skipMessage)
)
struct CorpusTests {
    struct Manifest: Decodable {
        struct File: Decodable {
            let path: String
            let size: Int
            let md5: String
            let sha256: String
            let kind: String
            let exiftool: [String: ExiftoolValue]
        }
        let files: [File]
    }

    static let fieldNames: [String: String] = [
        "DateTimeOriginal": "dateTaken", "Make": "cameraMake", "Model": "cameraModel",
        "Orientation": "orientation", "GPSLatitude": "gpsLatitude", "GPSLongitude": "gpsLongitude",
        "FNumber": "aperture", "ExposureTime": "shutterSpeed", "ISO": "iso", "FocalLength": "focalLength",
        "ImageWidth": "pixelWidth", "ImageHeight": "pixelHeight",
    ]

    @Test func inspectAgreesWithExiftool() throws {
        let manifest = try JSONDecoder().decode(
            Manifest.self,
            from: Data(contentsOf: Corpus.root.appendingPathComponent("manifest.json"))
        )
        let photos = Corpus.root.appendingPathComponent("photos")
        let names = manifest.files.map { String($0.path.dropFirst("photos/".count)) }
        let outcome = try PhotomillBinary.run(
            ["inspect", "--json", "--kinds", "hash,metadata,thumbnail"] + names,
            in: photos
        )
        // Some files are broken on purpose, so the run as a whole reports failure.
        #expect(outcome.status == 1)
        let objects = try PhotomillBinary.jsonLines(outcome)
        try #require(objects.count == manifest.files.count)

        var tally = ExiftoolTally()
        for (file, object) in zip(manifest.files, objects) {
            let name = String(file.path.dropFirst("photos/".count))
            #expect(object["path"] as? String == name)
            #expect(object["md5"] as? String == file.md5, "\(name)")
            #expect(object["sha256"] as? String == file.sha256, "\(name)")
            #expect(object["fileSize"] as? Int == file.size, "\(name)")
            let errors = object["errors"] as? [String: [String: String]] ?? [:]

            if file.kind == "broken" {
                #expect(!errors.isEmpty, "\(name) should fail some kind")
                for (kind, failure) in errors {
                    #expect(
                        ["not-an-image", "corrupt", "too-large", "unsupported-format"].contains(failure["class"] ?? ""),
                        "\(name) \(kind)"
                    )
                    #expect(failure["message"]?.contains(name) == true)
                }
                continue
            }
            #expect(errors.isEmpty, "\(name): \(errors)")

            let metadata = object["metadata"] as? [String: Any] ?? [:]
            for (field, expected) in file.exiftool {
                guard let ours = Self.fieldNames[field] else { continue }
                tally.compare(name, field, expected, metadata[ours])
            }

            // Longest side 256 (or the image's own if smaller), turned for orientations 5–8.
            let thumbnail = try #require(object["thumbnail"] as? [String: Any], "\(name)")
            let width = try #require(metadata["pixelWidth"] as? Int)
            let height = try #require(metadata["pixelHeight"] as? Int)
            let turned = (5...8).contains(metadata["orientation"] as? Int ?? 1)
            let (displayWidth, displayHeight) = turned ? (height, width) : (width, height)
            let thumbWidth = thumbnail["width"] as? Int ?? 0
            let thumbHeight = thumbnail["height"] as? Int ?? 0
            #expect(max(thumbWidth, thumbHeight) == min(256, max(displayWidth, displayHeight)), "\(name)")
            #expect((thumbWidth >= thumbHeight) == (displayWidth >= displayHeight), "\(name) orientation")
        }
        #expect(tally.rate >= 0.99, "\(tally.summary)")
        print("corpus: exiftool fields: \(tally.summary)")
    }
}
