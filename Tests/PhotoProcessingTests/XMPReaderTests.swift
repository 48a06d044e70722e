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

/// XMP sidecars as darktable, Lightroom, digiKam and exiftool write them; exiftool is the
/// reference for what each packet says.
@Suite("XMP")
struct XMPReaderTests {
    @Test("a sidecar written by exiftool (element form) reads as exiftool reads it")
    func elementForm() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("IMG_0001.CR2.xmp").path
        let written = try Tool.run(
            "exiftool",
            [
                "-o", path, "-XMP-dc:Title=Harbour at dawn", "-XMP-dc:Description=Boats, fog; the pier",
                "-XMP-dc:Subject=harbour", "-XMP-dc:Subject=boats", "-XMP-dc:Subject=fog", "-XMP-dc:Subject=boats",
                "-XMP-xmp:Rating=4", "-XMP-xmp:Label=Red",
                "-XMP-exif:DateTimeOriginal=2021:07:04 05:43:21+02:00",
                "-XMP-exif:GPSLatitude=48.8577", "-XMP-exif:GPSLatitudeRef=N",
                "-XMP-exif:GPSLongitude=-2.2950",
            ]
        )
        try #require(written.status == 0)
        let reference = try ExifTool.values(path, ["XMP:all"])
        let fields = try XMPReader.read(Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(fields.title == reference["Title"] as? String)
        #expect(fields.description == reference["Description"] as? String)
        // exiftool keeps the repeated keyword; we keep each once, in order.
        #expect(reference["Subject"] as? [String] == ["harbour", "boats", "fog", "boats"])
        #expect(fields.keywords == ["harbour", "boats", "fog"])
        #expect(fields.rating == reference["Rating"] as? Int)
        #expect(fields.label == reference["Label"] as? String)
        #expect(reference["DateTimeOriginal"] as? String == "2021:07:04 05:43:21+02:00")
        #expect(fields.dateTaken == "2021-07-04T05:43:21+02:00")
        let latitude = try #require(reference["GPSLatitude"] as? Double)
        let longitude = try #require(reference["GPSLongitude"] as? Double)
        #expect(abs(fields.gpsLatitude! - latitude) < 1e-6)
        #expect(abs(fields.gpsLongitude! - longitude) < 1e-6)
        #expect(longitude < 0)
    }

    @Test("darktable's attribute form, with a language alternative and a hierarchy of tags")
    func attributeForm() throws {
        let packet = """
            <?xml version="1.0" encoding="UTF-8"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:exif="http://ns.adobe.com/exif/1.0/"
                xmlns:xmp="http://ns.adobe.com/xap/1.0/"
                xmlns:dc="http://purl.org/dc/elements/1.1/"
                xmlns:darktable="http://darktable.sf.net/"
                xmp:Rating="-1"
                xmp:Label="Select"
                exif:DateTimeOriginal="2019:06:06 07:29:51"
                darktable:xmp_version="5">
               <dc:title>
                <rdf:Alt>
                 <rdf:li xml:lang="de-DE">Hafen</rdf:li>
                 <rdf:li xml:lang="x-default">Harbour</rdf:li>
                </rdf:Alt>
               </dc:title>
               <dc:subject>
                <rdf:Bag>
                 <rdf:li>places|harbour</rdf:li>
                 <rdf:li> sea </rdf:li>
                 <rdf:li></rdf:li>
                </rdf:Bag>
               </dc:subject>
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            """
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.NEF.xmp").path
        try Data(packet.utf8).write(to: URL(fileURLWithPath: path))
        let reference = try ExifTool.values(path, ["XMP:all"])
        #expect(reference["Rating"] as? Int == -1)
        #expect(reference["Label"] as? String == "Select")
        #expect(reference["Title"] as? String == "Harbour")

        let fields = try XMPReader.read(Data(packet.utf8))
        #expect(fields.rating == -1)
        #expect(fields.label == "Select")
        #expect(fields.title == "Harbour")
        #expect(fields.keywords == ["places|harbour", "sea"])
        // darktable writes EXIF-style dates into XMP; exiftool reads them, and so do we.
        #expect(reference["DateTimeOriginal"] as? String == "2019:06:06 07:29:51")
        #expect(fields.dateTaken == "2019-06-06T07:29:51")
        #expect(fields.description == nil)
    }

    @Test("values are trimmed of exactly what Foundation calls whitespace and newlines")
    func trimming() throws {
        // Foundation's `.whitespacesAndNewlines` is the reference; the reader trims with its
        // own (faster) loop over Unicode's White_Space. Every scalar either set could hold is
        // tried at both ends of a title and as a keyword of its own.
        // Foundation's set is wider than White_Space (U+200B, U+FEFF); U+200C/D (joiners) and
        // U+180E (White_Space until Unicode 6.3) sit at its edge.
        let candidates =
            (0...0xFFFF).compactMap(Unicode.Scalar.init).filter {
                $0.properties.isWhitespace || CharacterSet.whitespacesAndNewlines.contains($0)
            } + [Unicode.Scalar(0x200C)!, Unicode.Scalar(0x200D)!, Unicode.Scalar(0x180E)!]
        #expect(candidates.count > 20)
        // XML's characters
        for scalar in candidates where scalar.value >= 0x20 || [0x9, 0xA, 0xD].contains(scalar.value) {
            let padding = String(scalar)
            let escaped = "&#x\(String(scalar.value, radix: 16));"
            let packet = """
                <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:title><rdf:Alt><rdf:li xml:lang="x-default">\(escaped)Harbour\(escaped)at dawn\(escaped)</rdf:li></rdf:Alt></dc:title>
                <dc:subject><rdf:Bag><rdf:li>\(escaped)</rdf:li><rdf:li>boats\(escaped)</rdf:li></rdf:Bag></dc:subject>
                </rdf:Description></rdf:RDF></x:xmpmeta>
                """
            let fields = try XMPReader.read(Data(packet.utf8))
            let title = padding + "Harbour" + padding + "at dawn" + padding
            let expectedTitle = title.trimmingCharacters(in: .whitespacesAndNewlines)
            let expectedKeywords = [padding, "boats" + padding].map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }.filter { !$0.isEmpty }
            #expect(fields.title == expectedTitle, "U+\(String(scalar.value, radix: 16))")
            #expect(fields.keywords == expectedKeywords, "U+\(String(scalar.value, radix: 16))")
        }
    }

    @Test("the corpus sidecars: iPhone and Canon EOS 6D", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func corpusSidecars() throws {
        let formats = Corpus.formats
        let iphone = try XMPReader.read(Data(contentsOf: formats.appendingPathComponent("iphone_7.xmp")))
        // manifest-formats.json (exiftool): DateTimeOriginal 2018:09:10 12:16:13,
        // GPSLatitude 34.79745, GPSLongitude 134.764633333333.
        #expect(iphone.dateTaken == "2018-09-10T12:16:13")
        #expect(abs(iphone.gpsLatitude! - 34.79745) < 1e-6)
        #expect(abs(iphone.gpsLongitude! - 134.764633333333) < 1e-6)
        #expect(iphone.rating == nil && iphone.title == nil && iphone.keywords == nil)
        let canon = try XMPReader.read(Data(contentsOf: formats.appendingPathComponent("canon_eos_6d.xmp")))
        #expect(canon.dateTaken == "2019-06-06T07:29:51")
        #expect(canon.gpsLatitude == nil)
    }

    @Test("damaged and hostile packets fail with a reason, and read no file")
    func hostile() throws {
        #expect(throws: XMPError.self) { try XMPReader.read(Data("<x:xmpmeta><rdf:RDF".utf8)) }
        #expect(throws: XMPError.self) { try XMPReader.read(Data("<html><body>not xmp</body></html>".utf8)) }
        #expect(throws: XMPError.self) { try XMPReader.read(Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10])) }
        do {
            _ = try XMPReader.read(Data("<a>\n<b>\n</a>".utf8))
            Issue.record("mismatched tags were accepted")
        } catch {
            #expect(error.description.contains("line"))
        }
        // An external entity is never resolved: /etc/passwd does not end up in the title.
        let external = """
            <?xml version="1.0"?>
            <!DOCTYPE x [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>&secret;</dc:title></rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """
        let title: String?
        do { title = try XMPReader.read(Data(external.utf8)).title } catch { title = nil }
        #expect(title?.contains("root:") != true, "\(title ?? "")")
        // Nonsense values are dropped, not clamped.
        let nonsense = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/"
              xmp:Rating="7" exif:GPSLatitude="95,10.5N" exif:GPSLongitude="10,61.0E" xmp:CreateDate="2021-13-01T10:00:00"/>
            </rdf:RDF></x:xmpmeta>
            """
        let dropped = try XMPReader.read(Data(nonsense.utf8))
        #expect(
            dropped.rating == nil && dropped.gpsLatitude == nil && dropped.gpsLongitude == nil
                && dropped.dateTaken == nil
        )
    }

    @Test("a sidecar's edits win; date and place only fill gaps")
    func merging() {
        var metadata = PhotoMetadata()
        metadata.dateTaken = "2020-01-02T03:04:05"
        metadata.title = "from the file's own XMP"
        metadata.rating = 2
        var sidecar = XMPFields()
        sidecar.title = "from the sidecar"
        sidecar.keywords = ["a"]
        sidecar.dateTaken = "1999-09-09T09:09:09"
        sidecar.gpsLatitude = 10
        sidecar.gpsLongitude = 20
        var embedded = metadata
        embedded.merge(sidecar, replacing: false)
        #expect(embedded.title == "from the file's own XMP")
        #expect(embedded.keywords == ["a"])
        metadata.merge(sidecar, replacing: true)
        #expect(metadata.title == "from the sidecar")
        #expect(metadata.rating == 2)
        #expect(metadata.keywords == ["a"])
        #expect(metadata.dateTaken == "2020-01-02T03:04:05")
        #expect(metadata.gpsLatitude == 10 && metadata.gpsLongitude == 20)
    }
}
