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

/// `photomill samples` then `photomill inspect` on what it wrote: the values written
/// into each file (samples.json) come back, and the broken files fail as classified.
@Suite(.ownThread) struct SamplesCommandTests {
    @Test func inspectReadsBackWhatSamplesWrote() throws {
        let directory = try temporaryDirectory()
        let photos = directory.appendingPathComponent("photos")
        let written = try PhotomillBinary.run(["samples", photos.path, "--count", "12", "--seed", "3"])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.contains("wrote 12 files"))

        let manifestData = try Data(contentsOf: photos.appendingPathComponent("samples.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: manifestData) as? [String: Any])
        let specs = try #require(manifest["files"] as? [[String: Any]])
        #expect(specs.count == 12)

        let names = specs.compactMap { $0["file"] as? String }
        let outcome = try PhotomillBinary.run(
            ["inspect", "--json", "--kinds", "hash,metadata,thumbnail"] + names,
            in: photos
        )
        #expect(outcome.status == 1, "the broken samples make the run report failures")
        let objects = try PhotomillBinary.jsonLines(outcome)
        try #require(objects.count == specs.count)

        for (spec, object) in zip(specs, objects) {
            let name = spec["file"] as? String ?? "?"
            let errors = object["errors"] as? [String: [String: String]] ?? [:]
            if let broken = spec["broken"] as? String {
                // inspect reads the files it is given, media or not: the text and empty
                // files (which a scan fails by name) are no images.
                let expected = spec["scanFails"] != nil ? "not-an-image" : "corrupt"
                #expect(errors["thumbnail"]?["class"] == expected, "\(name) (\(broken))")
                continue
            }
            #expect(errors.isEmpty, "\(name): \(errors)")
            let metadata = object["metadata"] as? [String: Any] ?? [:]
            #expect(metadata["pixelWidth"] as? Int == spec["width"] as? Int, "\(name)")
            #expect(metadata["pixelHeight"] as? Int == spec["height"] as? Int, "\(name)")
            let exif = spec["exif"] as? [String: Any] ?? [:]
            #expect(metadata["cameraMake"] as? String == exif["make"] as? String, "\(name)")
            #expect(metadata["cameraModel"] as? String == exif["model"] as? String, "\(name)")
            if let orientation = exif["orientation"] as? Int, orientation != 1 {
                #expect(metadata["orientation"] as? Int == orientation, "\(name)")
            }
            if let latitude = exif["gpsLatitude"] as? Double {
                let ours = metadata["gpsLatitude"] as? Double ?? .nan
                #expect(abs(ours - latitude) < 1e-5, "\(name)")
            }
            if let date = exif["dateTimeOriginal"] as? String {
                let iso = String(date.prefix(10)).replacingOccurrences(of: ":", with: "-") + "T" + date.dropFirst(11)
                let offset = exif["offsetTimeOriginal"] as? String ?? ""
                #expect(metadata["dateTaken"] as? String == iso + offset, "\(name)")
            }
        }
    }

    @Test func sameSeedWritesSameFiles() throws {
        let a = try temporaryDirectory()
        let b = try temporaryDirectory()
        #expect(try PhotomillBinary.run(["samples", a.path, "--count", "4", "--seed", "11"]).status == 0)
        #expect(try PhotomillBinary.run(["samples", b.path, "--count", "4", "--seed", "11"]).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: a.path).sorted()
        #expect(names == (try FileManager.default.contentsOfDirectory(atPath: b.path).sorted()))
        for name in names {
            #expect(
                try Data(contentsOf: a.appendingPathComponent(name))
                    == Data(contentsOf: b.appendingPathComponent(name)),
                "\(name)"
            )
        }
    }
}
