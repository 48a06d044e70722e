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

/// Damaged, truncated, random and pathological videos: each gives a classified error whose
/// message names the file (or, when enough of it survives, a result), never a crash or a
/// hang.
@Suite(.enabled(if: VideoFixtures.toolsExist, VideoFixtures.toolsMissing))
struct VideoBadInputTests {
    let directory: URL
    init() throws { directory = try temporaryDirectory() }

    /// 12 s of H.264 with a keyframe every second.
    private func clip(_ name: String, _ extra: [String] = []) throws -> Data {
        try Data(
            contentsOf: VideoFixtures.ffmpeg(
                VideoFixtures.pattern(size: "320x240", seconds: 12) + [
                    "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "30",
                ] + extra,
                output: name,
                in: directory
            )
        )
    }

    @Test func emptyFile() {
        let failure = VideoFixtures.failure(of: Data(), path: "empty.mp4")
        #expect(failure == ProcessingError(.notAnImage, "empty.mp4: the file is empty"))
    }

    @Test func randomBytesAreNotAVideo() {
        var random = SplitMix64(seed: 20_240_601)
        let bytes = Data((0..<65_536).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        let failure = VideoFixtures.failure(of: bytes, path: "noise.mp4")
        #expect(
            failure
                == ProcessingError(
                    .notAnImage,
                    "noise.mp4: not a video (no known video container signature in the first bytes)"
                )
        )
    }

    /// A still image handed to the video reader is no video either.
    @Test func imageIsNotAVideo() throws {
        let png = directory.appendingPathComponent("still.png")
        try #require(try Tool.run("vips", ["black", png.path, "16", "16"]).status == 0)
        let failure = VideoFixtures.failure(of: try Data(contentsOf: png), path: "still.png")
        #expect(failure == ProcessingError(.notAnImage, "still.png: not a video (its content is png)"))
    }

    /// An MP4 signature followed by noise: FFmpeg's own words for it ("moov atom not
    /// found") are in the message.
    @Test func mp4HeaderThenNoise() {
        var random = SplitMix64(seed: 7)
        var bytes = Data([0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8))
        bytes.append(contentsOf: (0..<10_000).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        let failure = VideoFixtures.failure(of: bytes, path: "noise.mp4")
        #expect(failure?.errorClass == .corrupt)
        #expect(failure?.message.hasPrefix("noise.mp4: video data is damaged: ") == true)
    }

    /// A camera stopped mid-recording: the index (moov) was to come at the end.
    @Test func truncatedBeforeTheIndex() throws {
        let full = try clip("late.mp4")
        let failure = VideoFixtures.failure(of: full.prefix(full.count / 2), path: "clip.mp4")
        #expect(
            failure
                == ProcessingError(
                    .corrupt,
                    "clip.mp4: video data is damaged: moov atom not found (Invalid data found when processing input)"
                )
        )
    }

    /// The index first (faststart), the media cut: the container still describes the
    /// whole video; the poster comes from what is left — the first keyframe when the one at
    /// 1 s is gone — and fails only when no picture is left at all.
    @Test func truncatedAfterTheIndex() throws {
        let full = try clip("fast.mp4", ["-movflags", "faststart"])
        let video = directory.appendingPathComponent("fast.mp4")
        let bytes = [UInt8](full)
        let mdat = try #require((0..<(bytes.count - 4)).first { bytes[$0..<$0 + 4].elementsEqual("mdat".utf8) })
        // Half a second of the twelve: the keyframe at 0 is there, the one at 1 s is not.
        let cut = full.prefix(mdat + 4 + (full.count - mdat) / 24)
        let metadata = try VideoFixtures.withVideo(cut, path: "cut.mp4") { $0.metadata }
        #expect(abs((metadata.duration ?? 0) - 12) < 0.01)
        let poster = try VideoFixtures.withVideo(cut, path: "cut.mp4") { file in
            try VideoFixtures.raster(try file.posterFrame(longestSide: 256, pixelLimit: 200_000_000))
        }
        let first = try VideoFixtures.referencePicture(video, at: 0, longestSide: 256, in: directory)
        #expect(poster.meanDifference(from: first) < VideoPosterFrameTests.samePicture)

        let noMedia = full.prefix(mdat + 4)
        #expect(
            VideoFixtures.failure(of: noMedia, path: "cut.mp4")
                == ProcessingError(
                    .corrupt,
                    "cut.mp4: video data is damaged: the data ends before a picture could be decoded"
                )
        )
    }

    /// A container with sound and no pictures: nothing photomill can show, so
    /// unsupported-format (not corrupt: the file is sound).
    @Test func audioOnlyHasNoVideoStream() throws {
        let audio = try VideoFixtures.ffmpeg(
            ["-f", "lavfi", "-i", "sine=duration=2", "-c:a", "aac"],
            output: "voice.mp4",
            in: directory
        )
        let failure = VideoFixtures.failure(of: try Data(contentsOf: audio), path: "voice.mp4")
        #expect(failure == ProcessingError(.unsupportedFormat, "voice.mp4: holds no video stream (1 audio stream)"))
    }

    /// H.264 whose IDR pictures were all removed (ffmpeg's filter_units bitstream filter),
    /// 2500 frames in MPEG-TS: no keyframe ever comes. The search gives up at its packet
    /// limit instead of reading on.
    @Test func keyframeThatNeverComes() throws {
        let video = try VideoFixtures.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc=size=64x48:rate=100:duration=25",
                "-c:v", "libx264", "-bsf:v", "filter_units=remove_types=5", "-f", "mpegts",
            ],
            output: "no-idr.ts",
            in: directory
        )
        try #require(try VideoFixtures.keyframeTimes(video).isEmpty)
        let failure = VideoFixtures.failure(of: try Data(contentsOf: video), path: "no-idr.ts")
        #expect(
            failure
                == ProcessingError(
                    .corrupt,
                    "no-idr.ts: video data is damaged: no keyframe decoded in \(KeyframeSearch.packetLimit) packets (0 keyframes tried)"
                )
        )
    }

    /// The deadline, through the interrupt and read callbacks: a time limit of 0 stops the
    /// opening, and, set after opening, the poster frame.
    @Test func deadlineInterrupts() throws {
        let data = try clip("clip.mov")
        #expect(
            VideoFixtures.failure(of: data, path: "clip.mov", timeLimit: 0)
                == ProcessingError(.timeout, "clip.mov: gave up reading the container after 0 s")
        )
        let failure = try VideoFixtures.withVideo(data, path: "clip.mov") { file -> ProcessingError? in
            file.timeLimit = 0
            do throws(ProcessingError) {
                _ = try file.posterFrame(longestSide: 256, pixelLimit: 200_000_000)
                return nil
            } catch {
                return error
            }
        }
        #expect(failure?.errorClass == .timeout)
        #expect(failure?.message.hasPrefix("clip.mov: gave up ") == true)
    }

    /// Cuts at seeded random lengths and seeded random bit flips of videos in five
    /// containers. Whatever survives is either read or refused with a class a damaged
    /// file can have, and a message that names it.
    @Test(arguments: [
        ("clip.mov", [String]()), ("fast.mp4", ["-movflags", "faststart"]),
        ("clip.webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"]),
        ("clip.ts", ["-f", "mpegts"]), ("clip.avi", ["-c:v", "mpeg4"]),
        ("hevc.mp4", ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=none"]),
    ])
    func cutsAndFlipsAreClassified(name: String, extra: [String]) throws {
        let video = try VideoFixtures.ffmpeg(
            VideoFixtures.pattern(size: "160x120", seconds: 3)
                + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "15"] + extra,
            output: name,
            in: directory
        )
        let original = [UInt8](try Data(contentsOf: video))
        var random = SplitMix64(seed: 2_024, stream: name.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) })
        var outcomes: [String: Int] = [:]
        for round in 0..<80 {
            var bytes = original
            if round % 2 == 0 {
                bytes = Array(bytes.prefix(random.int(in: 1...bytes.count - 1)))
            } else {
                for _ in 0..<random.int(in: 1...20) {
                    let at = random.int(in: 0...bytes.count - 1)
                    bytes[at] ^= UInt8(1 << random.int(in: 0...7))
                }
            }
            let start = MonotonicInstant.now()
            let failure = VideoFixtures.failure(of: Data(bytes), path: name)
            #expect(MonotonicInstant.now() - start < 5, "\(name) round \(round) took too long")
            if let failure {
                #expect(
                    [ErrorClass.corrupt, .notAnImage, .unsupportedFormat, .tooLarge].contains(failure.errorClass),
                    "\(failure)"
                )
                #expect(failure.message.hasPrefix(name + ": "), "\(failure)")
            }
            outcomes[failure?.errorClass.rawValue ?? "read", default: 0] += 1
        }
        // Both ways out happen: the rounds are not all refused nor all read.
        #expect(outcomes.count >= 2, "\(name): \(outcomes)")
    }
}
