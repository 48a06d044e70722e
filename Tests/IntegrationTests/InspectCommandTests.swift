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

@Suite(.ownThread) struct InspectCommandTests {
    @Test func badFlagsExit64WithAHint() throws {
        let unknownKind = try PhotomillBinary.run(["inspect", "--kinds", "hash,colour", "x.jpg"])
        #expect(unknownKind.status == 64)
        #expect(unknownKind.stderr.contains("unknown kind 'colour'"))
        let noFiles = try PhotomillBinary.run(["inspect"])
        #expect(noFiles.status == 64)
        let badSize = try PhotomillBinary.run(["inspect", "--thumbnail-size", "0", "x.jpg"])
        #expect(badSize.status == 64)
        #expect(badSize.stderr.contains("--thumbnail-size"))
    }

    /// A video has no text to read: `inspect` with every kind gives it a poster frame and
    /// no OCR result, and that is no failure (exit 0); a bad OCR floor is refused.
    @Test(.enabled(if: Tool.isAvailable("ffmpeg"), "ffmpeg is not installed"))
    func videoGetsNoOCRAndNoFailure() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let video = directory.appendingPathComponent("clip.mp4").path
        try Tool.output(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=2:size=320x240:rate=25",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", video,
            ]
        )
        let outcome = try PhotomillBinary.run(["inspect", "--json", video])
        #expect(outcome.status == 0, "\(outcome.stdout) \(outcome.stderr)")
        let object = try #require(try PhotomillBinary.jsonLines(outcome).first)
        #expect(object["ocr"] == nil && object["errors"] == nil, "\(object)")
        #expect((object["thumbnail"] as? [String: Any])?["width"] as? Int == 256)
        #expect((object["metadata"] as? [String: Any])?["mediaType"] as? String == "video")

        let badFloor = try PhotomillBinary.run(["inspect", "--ocr-min-confidence", "0", video])
        #expect(badFloor.status == 64)
        #expect(badFloor.stderr.contains("--ocr-min-confidence must be between 1 and 100"))
    }

    @Test func oneBadFileDoesNotStopTheOthers() throws {
        let directory = try temporaryDirectory()
        let good = directory.appendingPathComponent("good.png")
        try blackImage(good.path, width: 300, height: 200)
        let bad = directory.appendingPathComponent("bad.jpg")
        try Data("not a photo".utf8).write(to: bad)
        let thumbs = directory.appendingPathComponent("thumbs")
        try FileManager.default.createDirectory(at: thumbs, withIntermediateDirectories: true)

        let outcome = try PhotomillBinary.run([
            "inspect", "--json", "--kinds", "hash,thumbnail",
            "--thumbnail-dir", thumbs.path, bad.path, good.path,
        ])
        #expect(outcome.status == 1)
        let objects = try PhotomillBinary.jsonLines(outcome)
        try #require(objects.count == 2)
        #expect((objects[0]["errors"] as? [String: [String: String]])?["thumbnail"]?["class"] == "not-an-image")
        let thumbnail = try #require(objects[1]["thumbnail"] as? [String: Any])
        #expect(thumbnail["width"] as? Int == 256)
        #expect(thumbnail["height"] as? Int == 171)
        let path = try #require(thumbnail["path"] as? String)
        #expect(path == thumbs.appendingPathComponent("\(objects[1]["md5"] as? String ?? "").jpg").path)
        #expect(FileManager.default.fileExists(atPath: path))
        // Only the finished thumbnail is there: no temporary files left behind.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: thumbs.path) == [
                URL(fileURLWithPath: path).lastPathComponent
            ]
        )
    }

    @Test func allGoodExitsZeroAndTableNamesEachFile() throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("grey.png")
        try blackImage(file.path, width: 64, height: 48)
        let outcome = try PhotomillBinary.run(["inspect", "--kinds", "hash,metadata,thumbnail", file.path])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains(file.path))
        #expect(outcome.stdout.contains("64×48"))
    }
}

/// A black image written by the `vips` command (not by the code under test).
private func blackImage(_ path: String, width: Int, height: Int) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["vips", "black", path, String(width), String(height)]
    try process.run()
    process.waitUntilExit()
}
