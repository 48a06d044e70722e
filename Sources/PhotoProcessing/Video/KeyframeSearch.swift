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

import CFFmpeg
import PhotomillCore

/// Finds and decodes a video's poster keyframe: the last keyframe shown at or before a
/// time, decoded on its own.
///
/// A seek alone does not find it. Containers index keyframes by decoding time, which runs
/// ahead of the showing time when frames are reordered (B-frames): with an HEVC keyframe
/// every 0.2 s, a seek to 0.5 s lands on the keyframe shown at 0.6 s. An MPEG-TS has no
/// index, and its seek lands near the time, not on a keyframe. So after the seek the
/// packets are read on, holding the latest keyframe shown at or before the time, until
/// they pass it; a keyframe found only after the time sends the seek further back, a few
/// times at most. Reading packets costs little (no decoding): only the keyframe chosen is
/// decoded. When it does not decode, or decodes with errors (concealed damage: smeared,
/// half grey), the keyframes after it are tried in turn; a read error ends the data, so a
/// file cut short still gives the keyframe read before the cut.
///
/// Every read counts against `packetLimit`, every decoded keyframe against
/// `keyframeLimit`, and each checks the input's deadline: a stream whose keyframes never
/// come, or never decode, fails instead of being read to its end.
final class KeyframeSearch {
    /// Video packets read at most: half a minute of 60 fps video.
    static let packetLimit = 2_000
    /// Keyframes decoded at most before giving up on damaged ones.
    static let keyframeLimit = 8
    /// Seeks back at most, when a seek lands past the keyframe wanted.
    static let stepBackLimit = 3

    private let video: VideoFile
    private let decoder: VideoDecoder
    private let packet: UnsafeMutablePointer<AVPacket>
    private let held: UnsafeMutablePointer<AVPacket>
    private var packets = 0
    private var keyframes = 0
    /// Why no picture came yet, for the error message: the read error that ended the
    /// data, or why the last keyframe gave no picture.
    private(set) var problem: String?

    init(video: VideoFile, decoder: VideoDecoder) throws(ProcessingError) {
        guard let packet = av_packet_alloc(), let held = av_packet_alloc() else {
            throw ProcessingError(.unreadable, "\(video.path): FFmpeg could not allocate a packet (out of memory)")
        }
        self.video = video
        self.decoder = decoder
        self.packet = packet
        self.held = held
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packet)
        var held: UnsafeMutablePointer<AVPacket>? = held
        av_packet_free(&held)
    }

    /// The picture of the last keyframe shown at or before `target` (in the stream's time
    /// base), or, when that does not decode, of the first one after it that does; owned
    /// by the decoder. Nil when the data ends first. When the container cannot seek, the
    /// first keyframe from where reading stands.
    func picture(notAfter target: Int64) throws(ProcessingError) -> UnsafeMutablePointer<AVFrame>? {
        var seekPoint = target
        var stepsBack = 0
        var holding = false
        var searching = seek(to: target)
        while true {
            let more = try nextPacket()
            let isKey = more && packet.pointee.flags & AV_PKT_FLAG_KEY != 0
            if searching {
                let shown = more ? Self.shownTime(packet) : nil
                if isKey, let shown, shown <= target {
                    av_packet_unref(held)
                    if av_packet_ref(held, packet) >= 0 { holding = true }
                    continue
                }
                let decodedAt = more ? Self.decodingTime(packet) : nil
                let passed = !more || (isKey && (shown ?? .max) > target) || (decodedAt ?? .min) > target
                guard passed else { continue }
                if !holding, let decodedAt, stepsBack < Self.stepBackLimit {
                    // Landed past the keyframe wanted: the first step goes to just before
                    // this packet (an index then gives the keyframe before it), the next
                    // ones a second and five seconds further.
                    let step = max(1, [0, video.ticks(seconds: 1), video.ticks(seconds: 5)][stepsBack])
                    stepsBack += 1
                    seekPoint = min(seekPoint, decodedAt) - step
                    if seek(to: seekPoint) { continue }
                }
                searching = false
                if holding, let picture = try decode(held) { return picture }
            }
            guard more else { return nil }
            if isKey, let picture = try decode(packet) { return picture }
        }
    }

    /// Decodes one keyframe packet alone; nil when it gives no picture, or a picture with
    /// errors. `.corrupt` past `keyframeLimit`.
    private func decode(
        _ packet: UnsafeMutablePointer<AVPacket>
    ) throws(ProcessingError) -> UnsafeMutablePointer<AVFrame>? {
        keyframes += 1
        guard keyframes <= Self.keyframeLimit else { throw exhausted() }
        switch decoder.decodeAlone(packet) {
        case .picture(let frame):
            guard frame.pointee.flags & AV_FRAME_FLAG_CORRUPT == 0, frame.pointee.decode_error_flags == 0 else {
                problem = "a keyframe decodes with errors" + (FFmpeg.takeLoggedError().map { " (\($0))" } ?? "")
                return nil
            }
            return frame
        case .none(let failure):
            problem =
                failure.map { "a keyframe does not decode: " + FFmpeg.cause(of: $0) } ?? "a keyframe gives no picture"
            return nil
        }
    }

    /// Moves the demuxer to the keyframe at or before `timestamp` by the container's index
    /// (near it, for MPEG-TS); false when the container cannot seek there.
    private func seek(to timestamp: Int64) -> Bool {
        av_seek_frame(video.format, video.stream.pointee.index, timestamp, AVSEEK_FLAG_BACKWARD) >= 0
    }

    /// Reads the video stream's next packet into `packet`; false at the end of the data or
    /// at a read error (kept as the `problem`). `.timeout` past the deadline.
    private func nextPacket() throws(ProcessingError) -> Bool {
        while true {
            if video.input.isPastDeadline { throw video.failure(FFmpeg.exit, while: "decoding the poster frame") }
            av_packet_unref(packet)
            let status = av_read_frame(video.format, packet)
            if status == FFmpeg.endOfFile { return false }
            if status == FFmpeg.exit { throw video.failure(status, while: "decoding the poster frame") }
            guard status >= 0 else {
                problem = FFmpeg.cause(of: status)
                return false
            }
            guard packet.pointee.stream_index == video.stream.pointee.index else { continue }
            packets += 1
            guard packets <= Self.packetLimit else { throw exhausted() }
            return true
        }
    }

    private func exhausted() -> ProcessingError {
        let cause = problem.map { ": " + $0 } ?? ""
        return ProcessingError(
            .corrupt,
            "\(video.path): video data is damaged: no keyframe decoded in \(min(packets, Self.packetLimit)) packets (\(min(keyframes, Self.keyframeLimit)) keyframes tried)\(cause)"
        )
    }

    private static func shownTime(_ packet: UnsafeMutablePointer<AVPacket>) -> Int64? {
        packet.pointee.pts != FFmpeg.noTimestamp ? packet.pointee.pts : decodingTime(packet)
    }

    private static func decodingTime(_ packet: UnsafeMutablePointer<AVPacket>) -> Int64? {
        packet.pointee.dts != FFmpeg.noTimestamp ? packet.pointee.dts : nil
    }
}
