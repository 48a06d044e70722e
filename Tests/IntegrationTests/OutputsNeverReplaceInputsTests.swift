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

/// Outputs never replace an input, and exports lose nothing (issue 29, items 3, 6 and 7;
/// docs/exports.md): `inspect`'s thumbnails, the exports and `--ocr-text` against the
/// photos they came from; copies of one content with sidecars of their own; a re-export of
/// an unchanged catalog; `--strip-gps` over an exports folder with a stale plist. md5sum,
/// vipsheader, Python's plistlib and exiftool are the references.
@Suite(.serialized, .ownThread) struct OutputsNeverReplaceInputsTests {
    @Test func inspectNeverWritesOverAFileItInspectsNorTwoThumbnailsOverOneAnother() throws {
        let folder = try temporaryDirectory()
        let written = try PhotomillBinary.run([
            "samples", folder.path, "--count", "3", "--seed", "29", "--photo-size", "400x300",
        ])
        try #require(written.status == 0, "\(written.stderr)")
        let photo = folder.appendingPathComponent("IMG_0001.jpg")
        chmod(photo.path, 0o444)
        // The case: the photo's own folder as --thumbnail-dir, without a hash.
        let before = try Tool.md5(photo.path)
        let own = try PhotomillBinary.run(
            ["inspect", "--kinds", "thumbnail", "--thumbnail-dir", ".", "IMG_0001.jpg"],
            in: folder
        )
        #expect(own.status == 0, "\(own.stderr)")
        #expect(try Tool.md5(photo.path) == before, "the photo is as it was")
        let thumbnail = folder.appendingPathComponent("IMG_0001.jpg.jpg").path
        #expect(try Tool.value("vipsheader", ["-f", "width", thumbnail]) == "256")

        // A file named by its own MD5: with the hash, its thumbnail's name is its own.
        let md5 = try Tool.md5(photo.path)
        let named = folder.appendingPathComponent("\(md5).jpg")
        try FileManager.default.copyItem(at: photo, to: named)
        let same = try PhotomillBinary.run([
            "inspect", "--kinds", "hash,thumbnail", "--thumbnail-dir", folder.path, named.path,
        ])
        #expect(same.status == 1, "\(same.stdout) \(same.stderr)")
        #expect(same.stderr.contains("it is one of the files inspected"), "\(same.stderr)")
        #expect(try Tool.md5(named.path) == md5)

        // a.jpg and a.png: a thumbnail each, each of its own picture (a.png is 300×400).
        let jpeg = folder.appendingPathComponent("a.jpg")
        let png = folder.appendingPathComponent("a.png")
        try FileManager.default.copyItem(at: photo, to: jpeg)
        try Tool.output("vips", ["rot", photo.path, png.path, "d90"])
        let thumbs = folder.appendingPathComponent("thumbs")
        try FileManager.default.createDirectory(at: thumbs, withIntermediateDirectories: true)
        let both = try PhotomillBinary.run([
            "inspect", "--kinds", "thumbnail", "--thumbnail-dir", thumbs.path, jpeg.path, png.path,
        ])
        #expect(both.status == 0, "\(both.stderr)")
        for (name, width, height) in [("a.jpg.jpg", "256", "192"), ("a.png.jpg", "192", "256")] {
            let path = thumbs.appendingPathComponent(name).path
            #expect(try Tool.value("vipsheader", ["-f", "width", path]) == width, "\(name)")
            #expect(try Tool.value("vipsheader", ["-f", "height", path]) == height, "\(name)")
        }
        // Two files of one name in two folders, different contents: the second is refused.
        let other = folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: png, to: other.appendingPathComponent("a.jpg"))
        let twice = try PhotomillBinary.run([
            "inspect", "--kinds", "thumbnail", "--thumbnail-dir", thumbs.path, jpeg.path,
            other.appendingPathComponent("a.jpg").path,
        ])
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("would replace the thumbnail of \(jpeg.path)"), "\(twice.stderr)")
        #expect(
            try Tool.value("vipsheader", ["-f", "width", thumbs.appendingPathComponent("a.jpg.jpg").path]) == "256",
            "the first one's thumbnail stays"
        )
    }

    @Test func copiesKeepTheirOwnSidecarsAReExportWritesNothingAndStrippedExportsHoldNoPlace() throws {
        let folder = try temporaryDirectory()
        let photos = folder.appendingPathComponent("photos")
        let written = try PhotomillBinary.run([
            "samples", photos.path, "--count", "6", "--seed", "7", "--photo-size", "320x240",
        ])
        try #require(written.status == 0, "\(written.stderr)")
        let original = photos.appendingPathComponent("IMG_0001.jpg")
        let copy = photos.appendingPathComponent("copy.jpg")
        try FileManager.default.copyItem(at: original, to: copy)
        for (photo, rating, title) in [(original, 5, "Private family album"), (copy, -1, "Rejected")] {
            try Tool.output(
                "exiftool",
                ["-q", "-o", photo.path + ".xmp", "-XMP-xmp:Rating=\(rating)", "-XMP-dc:Title=\(title)"]
            )
        }
        let catalog = folder.appendingPathComponent("catalog.sqlite").path
        let run = try PhotomillBinary.run([
            "run", photos.path, "--workers", "1", "--catalog", catalog, "--no-exports",
            "--kinds", "hash,metadata,thumbnail",
        ])
        #expect(run.status == 0 || run.status == 1, "\(run.stderr)")

        let exports = folder.appendingPathComponent("exports")
        var lines: [String] = []
        for _ in 0..<3 {
            let export = try PhotomillBinary.run(["export", exports.path, "--catalog", catalog])
            #expect(export.status == 0, "\(export.stderr)")
            lines.append(export.stdout)
        }
        #expect(!lines[0].contains(" 0 files written"), "\(lines[0])")
        #expect(lines[1].contains(": 0 files written") && lines[2].contains(": 0 files written"), "\(lines)")

        // Each copy's own file says what its sidecar says; the content's plist says neither.
        let check = try runScript(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import os, plistlib, sys
                root, photos = sys.argv[1], sys.argv[2]
                manifest = plistlib.load(open(os.path.join(root, 'manifest.plist'), 'rb'))
                assert manifest['formatVersion'] == 3, manifest['formatVersion']
                by_path = {e['path']: e for e in manifest['photos']}
                want = {os.path.join(photos, 'IMG_0001.jpg'): (5, 'Private family album'), os.path.join(photos, 'copy.jpg'): (-1, 'Rejected')}
                md5s = set()
                for path, (rating, title) in want.items():
                    entry = by_path[path]
                    own = plistlib.load(open(os.path.join(root, 'photos', '%d.plist' % entry['photoId']), 'rb'))
                    assert own['path'] == path and own['rating'] == rating and own['title'] == title, own
                    md5s.add(entry['md5'])
                assert len(md5s) == 1, md5s
                content = plistlib.load(open(os.path.join(root, 'metadata', md5s.pop() + '.plist'), 'rb'))
                assert 'rating' not in content and 'title' not in content and 'fileModificationDate' not in content, content
                assert content['pixelWidth'] == 320, content
                print('ok')
                """, exports.path, photos.path,
            ]
        )
        #expect(check.status == 0 && check.output.hasSuffix("ok\n"), "\(check.output)")

        // A photo with a place leaves the library; its plist stays stale in the folder until
        // an export with --strip-gps, which leaves no place anywhere under the folder.
        let specs =
            try JSONSerialization.jsonObject(with: Data(contentsOf: photos.appendingPathComponent("samples.json")))
            as! [String: Any]
        let placed = try #require(
            (specs["files"] as! [[String: Any]]).first { spec in
                (spec["exif"] as? [String: Any])?["gpsLatitude"] != nil && spec["file"] as? String != "IMG_0001.jpg"
            }?["file"] as? String
        )
        let gone = photos.appendingPathComponent(placed)
        let goneMD5 = try Tool.md5(gone.path)
        #expect(
            FileManager.default.fileExists(atPath: exports.appendingPathComponent("metadata/\(goneMD5).plist").path)
        )
        try FileManager.default.removeItem(at: gone)
        #expect(
            try PhotomillBinary.run([
                "run", photos.path, "--workers", "1", "--catalog", catalog, "--no-exports",
                "--kinds", "hash,metadata,thumbnail",
            ]).status <= 1
        )
        #expect(try PhotomillBinary.run(["forget", "--missing", "--catalog", catalog]).status == 0)
        let stripped = try PhotomillBinary.run(["export", exports.path, "--catalog", catalog, "--strip-gps"])
        #expect(stripped.status == 0 && stripped.stdout.contains("removed"), "\(stripped.stdout) \(stripped.stderr)")
        let noPlace = try runScript(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import os, plistlib, subprocess, sys
                root = sys.argv[1]
                plists = jpegs = 0
                for folder, _, names in os.walk(root):
                    for name in names:
                        path = os.path.join(folder, name)
                        if name.endswith('.plist'):
                            plists += 1
                            text = repr(plistlib.load(open(path, 'rb')))
                            assert 'gpslatitude' not in text.lower() and 'gpslongitude' not in text.lower(), path
                        elif name.endswith('.jpg'):
                            jpegs += 1
                            out = subprocess.run(['exiftool', '-s', '-s', '-s', '-GPSLatitude', '-GPSLongitude', path], capture_output=True, text=True).stdout
                            assert out.strip() == '', (path, out)
                assert plists >= 10 and jpegs >= 5, (plists, jpegs)
                assert plistlib.load(open(os.path.join(root, 'manifest.plist'), 'rb'))['gpsStripped'] is True
                print('ok', plists, jpegs)
                """, exports.path,
            ]
        )
        #expect(noPlace.status == 0 && noPlace.output.hasPrefix("ok"), "\(noPlace.output)")
        #expect(
            !FileManager.default.fileExists(atPath: exports.appendingPathComponent("metadata/\(goneMD5).plist").path)
        )

        // A folder that is not photomill's exports is refused before anything is written;
        // so is --ocr-text over a photo.
        let listing = try FileManager.default.contentsOfDirectory(atPath: photos.path).sorted()
        let sums = try listing.map { try Tool.md5(photos.appendingPathComponent($0).path) }
        let intoPhotos = try PhotomillBinary.run(["export", photos.path, "--catalog", catalog])
        #expect(
            intoPhotos.status == 73 && intoPhotos.stderr.contains("not photomill's exports"),
            "\(intoPhotos.stderr)"
        )
        let overPhoto = try PhotomillBinary.run(["export", exports.path, "--catalog", catalog, "--ocr-text", copy.path])
        #expect(overPhoto.status == 64 && overPhoto.stderr.contains("not a text export"), "\(overPhoto.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: photos.path).sorted() == listing)
        #expect(try listing.map { try Tool.md5(photos.appendingPathComponent($0).path) } == sums)
    }
}
