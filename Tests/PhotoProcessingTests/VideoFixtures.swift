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

/// Videos made by the `ffmpeg` command, and what independent tools say about them:
/// exiftool (the project's reference for metadata), ffprobe, and `ffmpeg` + `vips` for
/// reference pictures. Nested in one namespace so that other test files of this target
/// keep their names.
enum VideoFixtures {
    static var toolsExist: Bool { ["ffmpeg", "ffprobe", "exiftool", "vips"].allSatisfy(Tool.isAvailable) }
    static let toolsMissing: Comment = "ffmpeg, ffprobe, exiftool or vips is not installed: video tests skipped"

    /// A test pattern whose hue turns 120° a second, so that pictures a fraction of a
    /// second apart differ everywhere, not just in testsrc's frame counter.
    static func pattern(size: String, rate: Int = 30, seconds: Double) -> [String] {
        ["-f", "lavfi", "-i", "testsrc=size=\(size):rate=\(rate):duration=\(seconds),hue=h=t*120"]
    }

    /// Runs `ffmpeg -y … name` in `directory`; fails the test when ffmpeg fails.
    @discardableResult
    static func ffmpeg(_ arguments: [String], output name: String, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent(name)
        let result = try Tool.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y"] + arguments + [url.path])
        try #require(result.status == 0, "ffmpeg \(arguments.joined(separator: " ")) failed")
        return url
    }

    /// exiftool's values for `tags` (numbers as numbers, `-n`); QuickTime dates as stored
    /// (`-api QuickTimeUTC=0`: not converted to local time).
    static func exiftool(_ url: URL, _ tags: [String]) throws -> [String: Any] {
        try ExifTool.values(url.path, tags, options: ["-api", "QuickTimeUTC=0"])
    }

    /// ffprobe's entries for the first video stream, e.g. ["codec_name": "vp9", …].
    static func ffprobeStream(_ url: URL) throws -> [String: Any] {
        let result = try Tool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries",
                "stream=codec_name,width,height,avg_frame_rate:format=duration",
                "-of", "json", url.path,
            ]
        )
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        var stream = try #require((object["streams"] as? [[String: Any]])?.first)
        stream["duration"] = (object["format"] as? [String: Any])?["duration"]
        return stream
    }

    /// "30/1" → 30.
    static func rational(_ text: Any?) -> Double? {
        guard let parts = (text as? String)?.split(separator: "/"), parts.count == 2,
            let num = Double(parts[0]), let den = Double(parts[1]), den != 0
        else { return nil }
        return num / den
    }

    /// The times of the video stream's keyframes (packets flagged K by ffprobe: the
    /// container's sync samples, cues or index flags), in seconds from the start of the
    /// file as `ffmpeg -ss` counts them (an MPEG-TS starts at 1.4 s).
    static func keyframeTimes(_ url: URL) throws -> [Double] {
        let start = try Tool.run(
            "ffprobe",
            ["-v", "error", "-show_entries", "format=start_time", "-of", "csv=p=0", url.path]
        )
        let origin = Double(start.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let arguments = [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0",
            url.path,
        ]
        let lines = try Tool.run("ffprobe", arguments).stdout.split(whereSeparator: \.isNewline)
        var times: [Double] = []
        for line in lines {
            let fields = line.split(separator: ",")
            guard fields.count >= 2, fields[1].hasPrefix("K"), let time = Double(fields[0]) else { continue }
            times.append(((time - origin) * 1e6).rounded() / 1e6)
        }
        return times.sorted()
    }

    /// Where the poster frame must come from, by the rule (min(1 s, 10 % of the duration),
    /// then back to a keyframe) applied to what ffprobe reports: the last keyframe at or
    /// before that time.
    static func expectedPosterTime(_ url: URL) throws -> Double {
        let result = try Tool.run(
            "ffprobe",
            ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", url.path]
        )
        let duration = try #require(Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let time = min(1, duration / 10)
        return try #require(try keyframeTimes(url).filter { $0 <= time + 1e-4 }.max())
    }

    /// Opens the file with `VideoFile` and hands it to `body`, bytes kept alive meanwhile.
    static func withVideo<T>(
        _ url: URL,
        timeLimit: Double = VideoFile.defaultTimeLimit,
        _ body: (VideoFile) throws -> T
    ) throws -> T {
        let data = try Data(contentsOf: url)
        return try withVideo(data, path: url.lastPathComponent, timeLimit: timeLimit, body)
    }

    static func withVideo<T>(
        _ data: Data,
        path: String,
        timeLimit: Double = VideoFile.defaultTimeLimit,
        _ body: (VideoFile) throws -> T
    ) throws -> T {
        try data.withUnsafeBytes { bytes in
            try body(try VideoFile(bytes: bytes, path: path, timeLimit: timeLimit))
        }
    }

    /// The error opening (and, when that succeeds, taking the poster frame of) `data`
    /// gives; nil when both succeed.
    static func failure(
        of data: Data,
        path: String,
        timeLimit: Double = VideoFile.defaultTimeLimit,
        pixelLimit: Int = 200_000_000
    ) -> ProcessingError? {
        data.withUnsafeBytes { bytes -> ProcessingError? in
            do throws(ProcessingError) {
                let video = try VideoFile(bytes: bytes, path: path, timeLimit: timeLimit)
                _ = video.metadata
                _ = try video.posterFrame(longestSide: 256, pixelLimit: pixelLimit)
                return nil
            } catch {
                return error
            }
        }
    }

    /// Packed RGB pixels.
    struct Raster {
        let width: Int
        let height: Int
        let pixels: [UInt8]

        /// Mean absolute difference per channel value, 0…255.
        func meanDifference(from other: Raster) -> Double {
            precondition(width == other.width && height == other.height && pixels.count == other.pixels.count)
            let total = zip(pixels, other.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            return Double(total) / Double(pixels.count)
        }
    }

    static func raster(_ image: VipsImageRef) throws -> Raster {
        try #require(image.bands == 3)
        return Raster(width: image.width, height: image.height, pixels: try image.pixels())
    }

    /// The reference poster: the picture `ffmpeg -ss seconds -i video -frames:v 1` writes
    /// (decoded by ffmpeg, turned upright by its autorotation), shrunk to fit `longestSide`
    /// by `vips thumbnail`, as a binary PPM.
    static func referencePicture(
        _ video: URL,
        at seconds: Double,
        longestSide: Int,
        in directory: URL,
        ffmpegFilters: [String] = []
    ) throws -> Raster {
        let name = UUID().uuidString
        let png = try ffmpeg(
            ["-ss", "\(seconds)", "-i", video.path, "-frames:v", "1"] + ffmpegFilters,
            output: "\(name).png",
            in: directory
        )
        let ppm = directory.appendingPathComponent("\(name).ppm")
        try #require(
            try Tool.run("vips", ["thumbnail", png.path, ppm.path, "\(longestSide)", "--size", "down"]).status == 0
        )
        return try readPPM(Data(contentsOf: ppm))
    }

    /// A binary PPM (P6, maxval 255), comments allowed, as vips writes it.
    static func readPPM(_ data: Data) throws -> Raster {
        let bytes = [UInt8](data)
        var index = 0
        func token() -> String {
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                } else if bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                    index += 1
                } else {
                    break
                }
            }
            let start = index
            while index < bytes.count && ![0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        try #require(token() == "P6")
        let width = try #require(Int(token()))
        let height = try #require(Int(token()))
        try #require(token() == "255")
        index += 1
        try #require(bytes.count - index == width * height * 3)
        return Raster(width: width, height: height, pixels: Array(bytes[index...]))
    }
}

/// ../shared/corpus beside the checkout, found from this source file's location.
enum VideoCorpus {
    /// exiftool's values for one file of manifest-formats.json ("formats/gopher-video.mp4").
    static func exiftool(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: Corpus.root.appendingPathComponent("manifest-formats.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let files = try #require(manifest["files"] as? [[String: Any]])
        let file = try #require(files.first { $0["path"] as? String == path })
        return try #require(file["exiftool"] as? [String: Any])
    }
}
