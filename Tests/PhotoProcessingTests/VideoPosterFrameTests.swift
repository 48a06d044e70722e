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

/// `VideoFile.posterFrame` against reference pictures that the `ffmpeg` command decodes
/// (and turns upright itself) and `vips thumbnail` shrinks: the same picture, the right
/// way up, the right size. The pattern's hue turns 120° a second, so a picture taken at
/// the wrong time, or turned the wrong way, is far from the reference.
@Suite(.enabled(if: VideoFixtures.toolsExist, VideoFixtures.toolsMissing))
struct VideoPosterFrameTests {
    let directory: URL
    init() throws { directory = try temporaryDirectory() }

    /// Mean difference (0…255 per channel value) below which two pictures are the same
    /// picture, and above which they are not. Measured: the same frame 0.8–1.9 (2.9 for
    /// the corpus's full-range isom-avc1), differing only by the scaler (swscale's area
    /// filter against libvips' Lanczos) and rounding; the frame 0.1 s away 12, 0.4 s away
    /// 58, 1 s away 122; a picture turned the wrong way 161.
    static let samePicture = 4.0
    static let differentPicture = 10.0

    private func poster(
        _ video: URL,
        longestSide: Int = 256,
        pixelLimit: Int = 200_000_000
    ) throws -> VideoFixtures.Raster {
        try VideoFixtures.withVideo(video) { file in
            try VideoFixtures.raster(try file.posterFrame(longestSide: longestSide, pixelLimit: pixelLimit))
        }
    }

    private func reference(
        _ video: URL,
        at seconds: Double,
        longestSide: Int = 256,
        filters: [String] = []
    ) throws -> VideoFixtures.Raster {
        try VideoFixtures.referencePicture(
            video,
            at: seconds,
            longestSide: longestSide,
            in: directory,
            ffmpegFilters: filters.isEmpty ? [] : ["-vf", filters.joined(separator: ",")]
        )
    }

    private func expectSame(_ ours: VideoFixtures.Raster, _ reference: VideoFixtures.Raster, _ comment: Comment) {
        #expect(ours.width == reference.width && ours.height == reference.height, comment)
        guard ours.width == reference.width, ours.height == reference.height else { return }
        let difference = ours.meanDifference(from: reference)
        #expect(difference < Self.samePicture, "\(comment): mean difference \(difference)")
    }

    private func expectDifferent(_ ours: VideoFixtures.Raster, _ other: VideoFixtures.Raster, _ comment: Comment) {
        guard ours.width == other.width, ours.height == other.height else { return }
        let difference = ours.meanDifference(from: other)
        #expect(difference > Self.differentPicture, "\(comment): mean difference \(difference)")
    }

    /// 12 s of H.264 with a keyframe every second (30 frames at 30 fps): its poster is the
    /// keyframe at 1 s. Made once for the suite (twelve tests read it; none writes to it).
    private func keyframeEverySecond() throws -> URL { try Self.clipWithAKeyframeEverySecond.get() }

    private static let clipWithAKeyframeEverySecond = Result { () throws -> URL in
        try VideoFixtures.ffmpeg(
            VideoFixtures.pattern(size: "320x240", seconds: 12)
                + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "30"],
            output: "plain.mov",
            in: try temporaryDirectory()
        )
    }

    @Test func posterIsTheKeyframeOneSecondIn() throws {
        let video = try keyframeEverySecond()
        try #require(try VideoFixtures.keyframeTimes(video) == (0..<12).map(Double.init))
        let ours = try poster(video)
        #expect(ours.width == 256 && ours.height == 192)
        expectSame(ours, try reference(video, at: 1), "the frame at 1 s")
        expectDifferent(ours, try reference(video, at: 0), "the first frame")
    }

    /// With keyframes at 0 and 1.5 s, the seek goes back to the one at 0: a picture that
    /// decodes on its own, not one rebuilt from the frames before it.
    @Test func posterIsTheKeyframeBeforeOneSecond() throws {
        let video = try VideoFixtures.ffmpeg(
            VideoFixtures.pattern(size: "320x240", seconds: 12)
                + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "45"],
            output: "gop45.mov",
            in: directory
        )
        let keyframes = try VideoFixtures.keyframeTimes(video)
        try #require(keyframes.prefix(2) == [0, 1.5])
        let ours = try poster(video)
        expectSame(ours, try reference(video, at: 0), "the keyframe at 0 s")
        expectDifferent(ours, try reference(video, at: 1), "the frame at 1 s")
    }

    /// A 1-s clip, every frame a keyframe: the poster is a tenth in, frame 3 of 30.
    @Test func shortClipPosterIsATenthIn() throws {
        let video = try VideoFixtures.ffmpeg(
            VideoFixtures.pattern(size: "320x240", seconds: 1)
                + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "1"],
            output: "short.mov",
            in: directory
        )
        let duration = try #require(try VideoFixtures.exiftool(video, ["Duration"])["Duration"] as? Double)
        #expect(abs(duration - 1) < 0.001)
        let ours = try poster(video)
        expectSame(ours, try reference(video, at: 0.1), "the frame at 0.1 s")
        expectDifferent(ours, try reference(video, at: 0.5), "the frame at 0.5 s")
        expectDifferent(ours, try reference(video, at: 0), "the first frame")
    }

    /// The three rotations a stream copy with a rotate tag writes (exiftool's Rotation 90,
    /// 180, 270): the poster is upright, as `ffmpeg`'s autorotation shows it.
    @Test func posterIsUprightForEveryRotation() throws {
        let plain = try keyframeEverySecond()
        let unturned = try reference(plain, at: 1)
        for tag in [90, 180, 270] {
            let video = try VideoFixtures.ffmpeg(
                ["-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=\(tag)"],
                output: "rotate\(tag).mov",
                in: directory
            )
            let rotation = try #require(try VideoFixtures.exiftool(video, ["Rotation"])["Rotation"] as? Int)
            let ours = try poster(video)
            let sideways = rotation == 90 || rotation == 270
            #expect(
                ours.width == (sideways ? 192 : 256) && ours.height == (sideways ? 256 : 192),
                "Rotation \(rotation)"
            )
            expectSame(ours, try reference(video, at: 1), "Rotation \(rotation)")
            if rotation == 180 { expectDifferent(ours, unturned, "Rotation 180 left unturned") }
            if sideways {
                let otherWay = try reference(plain, at: 1, filters: [rotation == 90 ? "transpose=2" : "transpose=1"])
                expectDifferent(ours, otherWay, "Rotation \(rotation) turned the other way")
            }
        }
    }

    /// All eight orientations, mirrored ones included, written straight into the track
    /// header's matrix (FFmpeg 5.1 cannot write a mirror). The references are the plain
    /// video's frame turned by ffmpeg's own filters, following the EXIF definitions.
    @Test(arguments: [
        (1, [1, 0, 0, 1], [String]()), (2, [-1, 0, 0, 1], ["hflip"]), (3, [-1, 0, 0, -1], ["hflip", "vflip"]),
        (4, [1, 0, 0, -1], ["vflip"]), (5, [0, 1, 1, 0], ["transpose=0"]), (6, [0, 1, -1, 0], ["transpose=1"]),
        (7, [0, -1, -1, 0], ["transpose=3"]), (8, [0, -1, 1, 0], ["transpose=2"]),
    ])
    func everyMatrixOrientation(orientation: Int, abcd: [Int32], filters: [String]) throws {
        let plain = try keyframeEverySecond()
        var bytes = [UInt8](try Data(contentsOf: plain))
        try Self.setTrackMatrix(&bytes, abcd: abcd)
        let video = directory.appendingPathComponent("matrix\(orientation).mov")
        try Data(bytes).write(to: video)

        let (metadata, ours) = try VideoFixtures.withVideo(video) { file in
            (file.metadata, try VideoFixtures.raster(try file.posterFrame(longestSide: 256, pixelLimit: 200_000_000)))
        }
        #expect(metadata.orientation == (orientation == 1 ? nil : orientation))
        expectSame(ours, try reference(plain, at: 1, filters: filters), "orientation \(orientation)")
    }

    /// Writes a, b, c, d (in units of 1.0) of the first track header's matrix; the
    /// translation stays 0 (FFmpeg does not use it). tkhd: size, type, version and flags,
    /// then 20 bytes of times, id and duration (32 in version 1), 16 more, the matrix.
    static func setTrackMatrix(_ bytes: inout [UInt8], abcd: [Int32]) throws {
        let type = Array("tkhd".utf8)
        let at = try #require(Data(bytes).range(of: Data(type))?.lowerBound)
        let matrix = at + 4 + 4 + (bytes[at + 4] == 1 ? 32 : 20) + 16
        let values: [Int32] = [abcd[0] << 16, abcd[1] << 16, 0, abcd[2] << 16, abcd[3] << 16, 0, 0, 0, 1 << 30]
        for (index, value) in values.enumerated() {
            let bits = UInt32(bitPattern: value)
            for byte in 0..<4 { bytes[matrix + index * 4 + byte] = UInt8(truncatingIfNeeded: bits >> (24 - 8 * byte)) }
        }
    }

    /// Other codecs and containers, 5 s with a keyframe every 0.2 s: the poster is the
    /// keyframe at 0.4 s (the last before a tenth of the duration), as ffprobe lists them.
    @Test(arguments: [
        (
            "hevc.mp4",
            [
                "-c:v", "libx265", "-preset", "ultrafast", "-x265-params",
                "log-level=none:keyint=5:min-keyint=5:scenecut=0", "-pix_fmt",
                "yuv420p", "-tag:v", "hvc1",
            ]
        ),
        ("vp9.webm", ["-c:v", "libvpx-vp9", "-b:v", "300k", "-deadline", "realtime", "-cpu-used", "8", "-g", "5"]),
        ("h264.ts", ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "5", "-f", "mpegts"]),
        ("mpeg4.avi", ["-c:v", "mpeg4", "-q:v", "3", "-g", "5"]),
        ("h264.mkv", ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "5"]),
        (
            "hevc10.mov",
            [
                "-c:v", "libx265", "-preset", "ultrafast", "-x265-params",
                "log-level=none:keyint=5:min-keyint=5:scenecut=0", "-pix_fmt",
                "yuv420p10le", "-tag:v", "hvc1",
            ]
        ),
    ])
    func otherContainersPoster(name: String, codec: [String]) throws {
        let video = try VideoFixtures.ffmpeg(
            VideoFixtures.pattern(size: "352x288", rate: 25, seconds: 5) + codec,
            output: name,
            in: directory
        )
        let keyframe = try VideoFixtures.expectedPosterTime(video)
        #expect(abs(keyframe - 0.4) < 1e-3, "\(name)")
        let ours = try poster(video)
        #expect(ours.width == 256 && ours.height == 209, "\(name)")
        expectSame(ours, try reference(video, at: keyframe), "\(name): keyframe at \(keyframe) s")
    }

    /// A 720×480 picture of 32:27 pixels is a 16:9 picture (853⅓×480): 256×144.
    @Test func anamorphicPixelsKeepTheShownShape() throws {
        let video = try VideoFixtures.ffmpeg(
            VideoFixtures.pattern(size: "720x480", seconds: 2)
                + [
                    "-vf", "setsar=32/27", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "30",
                ],
            output: "anamorphic.mov",
            in: directory
        )
        let ours = try poster(video)
        #expect(ours.width == 256 && ours.height == 144)
        let metadata = try VideoFixtures.withVideo(video) { $0.metadata }
        #expect(metadata.pixelWidth == 720 && metadata.pixelHeight == 480)
    }

    @Test func neverUpscaled() throws {
        let video = try keyframeEverySecond()
        let ours = try poster(video, longestSide: 1000)
        #expect(ours.width == 320 && ours.height == 240)
        expectSame(ours, try reference(video, at: 1, longestSide: 1000), "full size")
    }

    /// The pixel limit is checked against the stored size before anything is decoded.
    @Test func pixelLimitRefusesBeforeDecoding() throws {
        let video = try keyframeEverySecond()
        let pixels = 320 * 240
        let refused = VideoFixtures.failure(of: try Data(contentsOf: video), path: "clip.mov", pixelLimit: pixels - 1)
        #expect(refused?.errorClass == .tooLarge)
        #expect(refused?.message.hasPrefix("clip.mov: 320×240") == true)
        #expect(VideoFixtures.failure(of: try Data(contentsOf: video), path: "clip.mov", pixelLimit: pixels) == nil)
    }

    /// An unknown codec (the sample description's four-character code changed by hand):
    /// the container still describes the video, the poster is `unsupported-format`.
    @Test func unknownCodecIsUnsupported() throws {
        let plain = try keyframeEverySecond()
        let bytes = [UInt8](try Data(contentsOf: plain))
        let avc1 = Array("avc1".utf8)
        let at = try #require(Data(bytes).range(of: Data(avc1))?.lowerBound)
        var patched = bytes
        patched.replaceSubrange(at..<at + 4, with: Array("abcd".utf8))
        let video = directory.appendingPathComponent("abcd.mov")
        try Data(patched).write(to: video)
        #expect(try VideoFixtures.exiftool(video, ["CompressorID"])["CompressorID"] as? String == "abcd")

        let metadata = try VideoFixtures.withVideo(video) { $0.metadata }
        #expect(metadata.videoCodec == nil)
        #expect(metadata.pixelWidth == 320 && metadata.pixelHeight == 240)
        let failure = VideoFixtures.failure(of: Data(patched), path: "abcd.mov")
        #expect(failure?.errorClass == .unsupportedFormat)
        #expect(failure?.message == "abcd.mov: codec tag 'abcd' video that this FFmpeg cannot decode")
    }

    @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
    func corpusPostersMatchFFmpeg() throws {
        for name in ["formats/gopher-video.mp4", "formats/isom-avc1.mp4"] {
            let video = Corpus.root.appendingPathComponent(name)
            let keyframe = try VideoFixtures.expectedPosterTime(video)
            expectSame(try poster(video), try reference(video, at: keyframe), "\(name): keyframe at \(keyframe) s")
        }
    }
}
