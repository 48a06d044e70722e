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
import Foundation
import PhotomillCore
import PhotomillTestSupport
import Testing

@testable import Exports

@Suite struct ExporterTests {
    /// What a user's own program would declare: exactly the documented keys.
    struct UserPhoto: Decodable {
        var dateTaken: String?
        var fileSize: Int?
        var pixelWidth: Int?
        var pixelHeight: Int?
        var cameraMake: String?
        var cameraModel: String?
        var orientation: Int?
        var gpsLatitude: Double?
        var gpsLongitude: Double?
        var aperture: Double?
        var shutterSpeed: Double?
        var iso: Int?
        var focalLength: Double?
        var lensModel: String?
        var md5: String
        var sha256: String?
        var ocrText: String?
    }

    let directory: URL
    let catalog: Catalog

    init() throws {
        directory = try temporaryDirectory("exports")
        catalog = try Catalog(path: directory.appendingPathComponent("catalog.sqlite").path)
        _ = try catalog.record(
            [ScannedFile(path: "/photos/a.jpg", size: 1234, mtimeNs: 5, recognition: .media(.jpeg))],
            kinds: [.hash, .metadata, .thumbnail, .ocr],
            now: 1
        )
        var batch = CommitBatch()
        batch.leases = [
            Lease(
                photoId: 1,
                kinds: [.hash, .metadata, .thumbnail, .ocr],
                token: "t",
                worker: "w",
                leasedAt: 1,
                expiresAt: 100
            )
        ]
        var values = PhotoMetadata()
        values.dateTaken = "2019-07-14T18:22:05+10:00"
        values.cameraMake = "Korvex"
        values.gpsLatitude = -33.856784
        values.gpsLongitude = 151.215297
        values.pixelWidth = 4000
        values.pixelHeight = 3000
        let outcomes: [(Kind, TaskOutcome)] = [
            (.hash, .hash(md5: "0123456789abcdef0123456789abcdef", sha256: String(repeating: "e", count: 64))),
            (.metadata, .metadata(values)),
            (.thumbnail, .thumbnail(width: 256, height: 192, jpeg: Data([0xFF, 0xD8, 0xFF, 0xD9]))),
            (.ocr, .ocr(text: "Harbour lighthouse", confidence: 90, language: "eng")),
        ]
        batch.results = outcomes.map { kind, outcome in
            ReportedResult(
                result: TaskResult(photoId: 1, kind: kind, leaseToken: "t", outcome: outcome, recipe: "r"),
                worker: "w",
                startedAt: 1,
                endedAt: 2
            )
        }
        _ = try catalog.commit(batch, now: 2)
    }

    @Test func binaryPlistDecodesWithTheDocumentedKeys() throws {
        let root = directory.appendingPathComponent("out")
        let summary = try Exporter(catalog: catalog, root: root).exportAll()
        // The content's plist and thumbnail, the file's plist, the manifest.
        #expect(summary.photos == 1 && summary.written == 4)
        let url = root.appendingPathComponent("metadata/0123456789abcdef0123456789abcdef.plist")
        let data = try Data(contentsOf: url)
        #expect(data.prefix(8) == Data("bplist00".utf8))
        let photo = try PropertyListDecoder().decode(UserPhoto.self, from: data)
        #expect(photo.cameraMake == "Korvex")
        #expect(photo.gpsLatitude == -33.856784)
        #expect(photo.fileSize == 1234)
        #expect(photo.ocrText == "Harbour lighthouse")
        #expect(photo.dateTaken == "2019-07-14T18:22:05+10:00")
        #expect(
            try Data(contentsOf: root.appendingPathComponent("thumbs/0123456789abcdef0123456789abcdef.jpg"))
                == Data([0xFF, 0xD8, 0xFF, 0xD9])
        )
    }

    @Test func pythonPlistlibReadsIt() throws {
        let root = directory.appendingPathComponent("out")
        _ = try Exporter(catalog: catalog, root: root).exportAll()
        let script = """
            import plistlib, sys
            d = plistlib.load(open(sys.argv[1], 'rb'))
            m = plistlib.load(open(sys.argv[2], 'rb'))
            print(d['cameraMake'], d['gpsLongitude'], d['pixelWidth'], m['photos'][0]['path'])
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", script,
            root.appendingPathComponent("metadata/0123456789abcdef0123456789abcdef.plist").path,
            root.appendingPathComponent("manifest.plist").path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "Korvex 151.215297 4000 /photos/a.jpg")
    }

    @Test func stripGPSLeavesLocationOut() throws {
        let root = directory.appendingPathComponent("nogps")
        _ = try Exporter(catalog: catalog, root: root, stripGPS: true).exportAll()
        let data = try Data(contentsOf: root.appendingPathComponent("metadata/0123456789abcdef0123456789abcdef.plist"))
        let dictionary = try #require(
            try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        )
        #expect(dictionary["gpsLatitude"] == nil && dictionary["gpsLongitude"] == nil)
        #expect(dictionary["cameraMake"] as? String == "Korvex")
    }

    @Test func identicalContentIsWrittenOnce() throws {
        let root = directory.appendingPathComponent("out")
        let exporter = try Exporter(catalog: catalog, root: root)
        _ = try exporter.exportAll()
        let plist = root.appendingPathComponent("metadata/0123456789abcdef0123456789abcdef.plist")
        let before = try FileManager.default.attributesOfItem(atPath: plist.path)[.systemFileNumber] as? Int
        let again = try exporter.export(photoIds: [1])
        #expect(again.written == 0 && again.unchanged == 3)
        // Same inode: the file was not replaced.
        #expect(try FileManager.default.attributesOfItem(atPath: plist.path)[.systemFileNumber] as? Int == before)
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("metadata").path
        )
        .filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }
}
