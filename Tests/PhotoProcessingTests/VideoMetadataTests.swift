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

/// `VideoFile.metadata` on videos the `ffmpeg` command makes, checked against what
/// exiftool (or, where exiftool has no field, ffprobe) reports for the same file.
@Suite(.enabled(if: VideoFixtures.toolsExist, VideoFixtures.toolsMissing))
struct VideoMetadataTests {
    let directory: URL
    init() throws { directory = try temporaryDirectory() }

    /// exiftool's Rotation (clockwise degrees) as an EXIF orientation; the mapping
    /// is the EXIF specification's, not ours.
    static let orientationOfRotation: [Int: Int] = [90: 6, 180: 3, 270: 8]

    /// "2019:05:18 12:00:00+02:00" (exiftool) → "2019-05-18T12:00:00+02:00".
    static func iso8601(exiftool date: String) -> String {
        let chars = Array(date)
        return String(chars[0..<4]) + "-" + String(chars[5..<7]) + "-" + String(chars[8..<10]) + "T"
            + String(chars[11...])
    }

    private func plainH264() throws -> URL {
        try VideoFixtures.ffmpeg(
            VideoFixtures.pattern(size: "320x240", seconds: 3) + ["-c:v", "libx264", "-pix_fmt", "yuv420p"],
            output: "plain-\(UUID().uuidString).mov",
            in: directory
        )
    }

    @Test func rotatedVideoAgreesWithExiftool() throws {
        // The brief's example, encoded in one go: FFmpeg 5.1 ignores the rotate tag when
        // encoding (exiftool's Rotation stays 0, and so must ours).
        let video = try VideoFixtures.ffmpeg(
            VideoFixtures.pattern(size: "320x240", seconds: 3) + [
                "-c:v", "libx264", "-pix_fmt", "yuv420p",
                "-metadata", "creation_time=2021-06-01T10:20:30Z", "-metadata:s:v:0", "rotate=90",
            ],
            output: "rot.mov",
            in: directory
        )
        let exif = try VideoFixtures.exiftool(
            video,
            [
                "Rotation", "ImageWidth", "ImageHeight", "Duration",
                "VideoFrameRate", "CompressorID", "CreateDate",
            ]
        )
        try #require(exif["Rotation"] as? Int == 0)
        let metadata = try VideoFixtures.withVideo(video) { $0.metadata }

        #expect(metadata.mediaType == .video)
        #expect(metadata.orientation == nil)
        #expect(metadata.pixelWidth == exif["ImageWidth"] as? Int)
        #expect(metadata.pixelHeight == exif["ImageHeight"] as? Int)
        let duration = try #require(exif["Duration"] as? Double)
        #expect(abs((metadata.duration ?? 0) - duration) < 0.001)
        let rate = try #require(exif["VideoFrameRate"] as? Double)
        #expect(abs((metadata.frameRate ?? 0) - rate) < 0.001)
        #expect(exif["CompressorID"] as? String == "avc1")
        #expect(metadata.videoCodec == "h264")
        // The movie header's date is UTC (QuickTime spec): exiftool's CreateDate plus "Z".
        let created = try #require(exif["CreateDate"] as? String)
        #expect(metadata.dateTaken == Self.iso8601(exiftool: created) + "Z")
        #expect(metadata.dateTaken == "2021-06-01T10:20:30Z")
        #expect(metadata.cameraMake == nil && metadata.cameraModel == nil && metadata.gpsLatitude == nil)
    }

    /// The display matrix written by a stream copy with a rotate tag, read by exiftool
    /// (clockwise degrees) and by us (an EXIF orientation). FFmpeg 5.1 writes the tag's
    /// angle counter-clockwise: rotate=90 gives exiftool's Rotation 270. The test does not
    /// rely on that: it asks exiftool, and checks that all three angles were covered.
    @Test func orientationFollowsExiftoolRotation() throws {
        let plain = try plainH264()
        var seen: Set<Int> = []
        for tag in [90, 180, 270] {
            let video = try VideoFixtures.ffmpeg(
                ["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=\(tag)"],
                output: "rotate\(tag).mov",
                in: directory
            )
            let exif = try VideoFixtures.exiftool(video, ["Rotation", "ImageWidth", "ImageHeight"])
            let rotation = try #require(exif["Rotation"] as? Int)
            seen.insert(rotation)
            let metadata = try VideoFixtures.withVideo(video) { $0.metadata }
            #expect(
                metadata.orientation == Self.orientationOfRotation[rotation],
                "rotate=\(tag), exiftool Rotation \(rotation)"
            )
            // The stored size, before rotation, as exiftool reports it.
            #expect(metadata.pixelWidth == 320 && exif["ImageWidth"] as? Int == 320)
            #expect(metadata.pixelHeight == 240 && exif["ImageHeight"] as? Int == 240)
        }
        #expect(seen == [90, 180, 270])
        #expect(try VideoFixtures.withVideo(plain) { $0.metadata.orientation } == nil)
    }

    @Test func appleKeysAgreeWithExiftool() throws {
        let video = try VideoFixtures.ffmpeg(
            [
                "-i", try plainH264().path, "-c", "copy", "-movflags", "use_metadata_tags",
                "-metadata", "com.apple.quicktime.creationdate=2019-05-18T12:00:00+0200",
                "-metadata", "com.apple.quicktime.location.ISO6709=+48.8577+002.2950+035.000/",
                "-metadata", "com.apple.quicktime.make=Apple",
                "-metadata", "com.apple.quicktime.model=iPhone 12 Pro",
                "-metadata", "com.apple.quicktime.content.identifier=6D4E5C3B-2A19-4F08-B7E6-D5C4B3A29180",
                // A different UTC date in the movie header: Apple's local date wins.
                "-metadata", "creation_time=2019-05-18T10:00:05Z",
            ],
            output: "apple.mov",
            in: directory
        )
        let exif = try VideoFixtures.exiftool(
            video,
            [
                "CreationDate", "CreateDate", "GPSLatitude", "GPSLongitude",
                "Make", "Model", "ContentIdentifier",
            ]
        )
        let metadata = try VideoFixtures.withVideo(video) { $0.metadata }

        let creation = try #require(exif["CreationDate"] as? String)
        #expect(creation == "2019:05:18 12:00:00+02:00")
        #expect(metadata.dateTaken == Self.iso8601(exiftool: creation))
        let latitude = try #require(exif["GPSLatitude"] as? Double)
        let longitude = try #require(exif["GPSLongitude"] as? Double)
        #expect(abs((metadata.gpsLatitude ?? 0) - latitude) < 1e-6)
        #expect(abs((metadata.gpsLongitude ?? 0) - longitude) < 1e-6)
        #expect(metadata.cameraMake == exif["Make"] as? String)
        #expect(metadata.cameraModel == exif["Model"] as? String)
        #expect(metadata.cameraModel == "iPhone 12 Pro")
        #expect(metadata.contentIdentifier == exif["ContentIdentifier"] as? String)
        #expect(metadata.contentIdentifier == "6D4E5C3B-2A19-4F08-B7E6-D5C4B3A29180")
    }

    /// QuickTime's user-data atoms ©mak, ©mod and ©xyz, as a MOV written without
    /// `use_metadata_tags` holds them; a southern, eastern position.
    @Test func userDataAtomsAgreeWithExiftool() throws {
        let video = try VideoFixtures.ffmpeg(
            [
                "-i", try plainH264().path, "-c", "copy", "-metadata", "make=Canon", "-metadata", "model=EOS R5",
                "-metadata", "location=-33.8568+151.2153/",
            ],
            output: "udta.mov",
            in: directory
        )
        let exif = try VideoFixtures.exiftool(video, ["Make", "Model", "GPSLatitude", "GPSLongitude"])
        let metadata = try VideoFixtures.withVideo(video) { $0.metadata }
        #expect(metadata.cameraMake == exif["Make"] as? String && metadata.cameraMake == "Canon")
        #expect(metadata.cameraModel == exif["Model"] as? String && metadata.cameraModel == "EOS R5")
        let latitude = try #require(exif["GPSLatitude"] as? Double)
        let longitude = try #require(exif["GPSLongitude"] as? Double)
        #expect(latitude < 0)
        #expect(abs((metadata.gpsLatitude ?? 0) - latitude) < 1e-6)
        #expect(abs((metadata.gpsLongitude ?? 0) - longitude) < 1e-6)
    }

    /// Android's keys (`com.android.manufacturer`, `com.android.model`), its ©xyz position
    /// (western) and a movie-header date.
    @Test func androidKeysAgreeWithExiftool() throws {
        let video = try VideoFixtures.ffmpeg(
            [
                "-i", try plainH264().path, "-c", "copy", "-movflags", "use_metadata_tags",
                "-metadata", "com.android.manufacturer=Google", "-metadata", "com.android.model=Pixel 7",
                "-metadata", "location=+37.4220-122.0841/", "-metadata", "creation_time=2022-08-01T09:30:00Z",
            ],
            output: "android.mp4",
            in: directory
        )
        let exif = try VideoFixtures.exiftool(
            video,
            ["AndroidManufacturer", "AndroidModel", "GPSLatitude", "GPSLongitude", "CreateDate"]
        )
        let metadata = try VideoFixtures.withVideo(video) { $0.metadata }
        #expect(metadata.cameraMake == exif["AndroidManufacturer"] as? String && metadata.cameraMake == "Google")
        #expect(metadata.cameraModel == exif["AndroidModel"] as? String && metadata.cameraModel == "Pixel 7")
        let latitude = try #require(exif["GPSLatitude"] as? Double)
        let longitude = try #require(exif["GPSLongitude"] as? Double)
        #expect(longitude < 0)
        // The MP4 muxer also writes a 3GPP `loci` atom, which exiftool prefers: 16.16
        // fixed point, 1.5e-5° a step. Ours is the text, exactly as written.
        #expect(abs((metadata.gpsLatitude ?? 0) - latitude) < 2e-5)
        #expect(abs((metadata.gpsLongitude ?? 0) - longitude) < 2e-5)
        #expect(metadata.gpsLatitude == 37.4220 && metadata.gpsLongitude == -122.0841)
        #expect(metadata.dateTaken == Self.iso8601(exiftool: try #require(exif["CreateDate"] as? String)) + "Z")
    }

    /// A camera whose clock was never set: exiftool reports the movie header's date as
    /// "0000:00:00 00:00:00" (zero) or "1970:01:01 00:00:07" (seconds after the epoch),
    /// and the file has no other date; neither is a date.
    @Test func unsetClockGivesNoDate() throws {
        let plain = try plainH264()
        for (stamp, exiftoolSays) in [
            ("1970-01-01T00:00:00Z", "0000:00:00 00:00:00"), ("1970-01-01T00:00:07Z", "1970:01:01 00:00:07"),
        ] {
            let video = try VideoFixtures.ffmpeg(
                ["-i", plain.path, "-c", "copy", "-metadata", "creation_time=\(stamp)"],
                output: "clock-\(UUID().uuidString).mov",
                in: directory
            )
            #expect(try VideoFixtures.exiftool(video, ["CreateDate"])["CreateDate"] as? String == exiftoolSays)
            let metadata = try VideoFixtures.withVideo(video) { $0.metadata }
            #expect(metadata.dateTaken == nil, "\(stamp)")
            #expect(metadata.duration != nil)
        }
    }

    /// Other codecs and containers, against ffprobe (exiftool knows little of WebM and
    /// MPEG-TS): the codec's name, the size, the frame rate, the duration.
    @Test(arguments: [
        (
            "hevc.mp4",
            [
                "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=none", "-pix_fmt", "yuv420p",
                "-tag:v", "hvc1",
            ],
            "hevc"
        ),
        ("vp9.webm", ["-c:v", "libvpx-vp9", "-b:v", "200k", "-deadline", "realtime", "-cpu-used", "8"], "vp9"),
        ("h264.ts", ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-f", "mpegts"], "h264"),
        ("mpeg4.avi", ["-c:v", "mpeg4", "-q:v", "5"], "mpeg4"),
        ("h264.mkv", ["-c:v", "libx264", "-pix_fmt", "yuv420p"], "h264"),
    ])
    func otherContainersAgreeWithFFprobe(name: String, codec: [String], expectedCodec: String) throws {
        let video = try VideoFixtures.ffmpeg(
            VideoFixtures.pattern(size: "352x288", rate: 25, seconds: 2) + codec,
            output: name,
            in: directory
        )
        let probe = try VideoFixtures.ffprobeStream(video)
        try #require(probe["codec_name"] as? String == expectedCodec)
        let metadata = try VideoFixtures.withVideo(video) { $0.metadata }
        #expect(metadata.videoCodec == expectedCodec)
        #expect(metadata.pixelWidth == probe["width"] as? Int && metadata.pixelWidth == 352)
        #expect(metadata.pixelHeight == probe["height"] as? Int && metadata.pixelHeight == 288)
        let rate = try #require(VideoFixtures.rational(probe["avg_frame_rate"]))
        #expect(abs((metadata.frameRate ?? 0) - rate) < 0.01)
        let duration = try #require((probe["duration"] as? String).flatMap(Double.init))
        #expect(abs((metadata.duration ?? 0) - duration) < 0.001)
        #expect(abs((metadata.duration ?? 0) - 2) < 0.1)
        #expect(metadata.mediaType == .video)
    }

    /// The two real videos of ../shared/corpus against their exiftool values in
    /// manifest-formats.json.
    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func corpusVideosAgreeWithExiftool() throws {
        for name in ["formats/gopher-video.mp4", "formats/isom-avc1.mp4"] {
            let exif = try VideoCorpus.exiftool(name)
            let metadata = try VideoFixtures.withVideo(Corpus.root.appendingPathComponent(name)) { $0.metadata }
            #expect(metadata.pixelWidth == exif["ImageWidth"] as? Int, "\(name)")
            #expect(metadata.pixelHeight == exif["ImageHeight"] as? Int, "\(name)")
            let duration = try #require(exif["Duration"] as? Double)
            #expect(abs((metadata.duration ?? 0) - duration) < 0.001, "\(name)")
            let rate = try #require(exif["VideoFrameRate"] as? Double)
            #expect(abs((metadata.frameRate ?? 0) - rate) < 0.001, "\(name)")
            #expect(exif["CompressorID"] as? String == "avc1")
            #expect(metadata.videoCodec == "h264", "\(name)")
            #expect(exif["Rotation"] as? Int == 0)
            #expect(metadata.orientation == nil, "\(name)")
            let created = try #require(exif["CreateDate"] as? String)
            if created.hasPrefix("0000") {
                #expect(metadata.dateTaken == nil, "\(name)")
            } else {
                #expect(metadata.dateTaken == Self.iso8601(exiftool: created) + "Z", "\(name)")
            }
            // isom-avc1's ©xyz is +00.0000+000.0000/: no fix, so no position.
            if exif["GPSLatitude"] as? Double == 0, exif["GPSLongitude"] as? Double == 0 {
                #expect(metadata.gpsLatitude == nil && metadata.gpsLongitude == nil, "\(name)")
            }
        }
        #expect(try VideoCorpus.exiftool("formats/isom-avc1.mp4")["GPSLatitude"] as? Double == 0)
    }
}
