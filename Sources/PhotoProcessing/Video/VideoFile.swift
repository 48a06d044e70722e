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
import Foundation
import PhotomillCore

/// A video opened from its bytes in memory: the container parsed (`avformat_open_input`
/// over a `MemoryInput`, then `avformat_find_stream_info`), its main video stream chosen,
/// ready to describe itself (`metadata`, in VideoFile+Metadata.swift) and to decode a
/// poster frame (VideoFile+PosterFrame.swift).
///
/// The bytes must outlive it: FFmpeg reads them in place. Each FFmpeg operation — opening
/// here, the poster frame later — gets `timeLimit` seconds on the monotonic clock before
/// it is interrupted (`.timeout`). Not thread-safe: one per file and thread.
///
/// Opening fails with `.notAnImage` for an empty file or bytes of no video container,
/// `.unsupportedFormat` for a container with no video stream (an audio recording) or one
/// this FFmpeg has no demuxer for, `.corrupt` when FFmpeg cannot parse the container,
/// `.timeout` past the time limit.
final class VideoFile {
    let path: String
    /// Seconds each operation may take, from its start.
    var timeLimit: Double
    let input: MemoryInput
    let format: UnsafeMutablePointer<AVFormatContext>
    /// The video stream the metadata and the poster frame come from.
    let stream: UnsafeMutablePointer<AVStream>

    /// Generous: opening a file takes milliseconds and a 4K poster frame a fraction of a
    /// second. Reaching it means FFmpeg is stuck on pathological data, and the coordinator's
    /// lease (60 s) should not be what ends the job.
    static let defaultTimeLimit = 20.0

    /// How much of the file `avformat_find_stream_info` may read and how much media time
    /// it may analyse. FFmpeg's own defaults (5 MB, 5 s): enough for every codec's
    /// parameters and the frame rate, and a bound on a file that never gives them.
    private static let probeBytes: Int64 = 5_000_000
    private static let analyzeMicroseconds: Int64 = 5 * Int64(AV_TIME_BASE)

    init(
        bytes: UnsafeRawBufferPointer,
        path: String,
        timeLimit: Double = VideoFile.defaultTimeLimit
    ) throws(ProcessingError) {
        FFmpeg.setUp()
        self.path = path
        self.timeLimit = timeLimit
        let demuxer = try Self.demuxer(for: bytes, path: path)
        guard let input = MemoryInput(bytes: bytes, deadline: .now() + timeLimit),
            var opened = avformat_alloc_context()
        else {
            throw ProcessingError(.unreadable, "\(path): FFmpeg could not allocate its reader (out of memory)")
        }
        self.input = input
        opened.pointee.pb = input.context
        opened.pointee.interrupt_callback = input.interruptCallback
        opened.pointee.probesize = Self.probeBytes
        opened.pointee.max_analyze_duration = Self.analyzeMicroseconds

        _ = FFmpeg.takeLoggedError()
        var context: UnsafeMutablePointer<AVFormatContext>? = opened
        let status = avformat_open_input(&context, nil, demuxer, nil)
        // On failure avformat_open_input has freed the context (not our input).
        guard status >= 0, let context else {
            throw Self.failure(status, while: "reading the container", path: path, input: input, timeLimit: timeLimit)
        }
        opened = context

        let analysed = Self.findStreamInfo(opened)
        let interrupted = analysed < 0 && (analysed == FFmpeg.exit || input.isPastDeadline)
        guard !interrupted, let stream = Self.videoStream(of: opened) else {
            let failure =
                analysed < 0
                ? Self.failure(analysed, while: "reading the streams", path: path, input: input, timeLimit: timeLimit)
                : ProcessingError(
                    .unsupportedFormat,
                    "\(path): holds no video stream (\(Self.streamSummary(of: opened)))"
                )
            var closing: UnsafeMutablePointer<AVFormatContext>? = opened
            avformat_close_input(&closing)
            throw failure
        }
        // Otherwise a stream-info failure with a usable video stream is no failure:
        // FFmpeg's own tools go on too (e.g. an audio stream whose parameters never showed).
        format = opened
        self.stream = stream
        for index in 0..<Int(opened.pointee.nb_streams) where index != Int(stream.pointee.index) {
            opened.pointee.streams[index]!.pointee.discard = AVDISCARD_ALL
        }
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = format
        avformat_close_input(&context)
    }

    /// `avformat_find_stream_info`, whose decoders (it decodes a few frames of each stream
    /// for their parameters) get one thread each, as ours do.
    private static func findStreamInfo(_ format: UnsafeMutablePointer<AVFormatContext>) -> Int32 {
        let count = Int(format.pointee.nb_streams)
        var options = [OpaquePointer?](repeating: nil, count: count)
        for index in 0..<count { av_dict_set(&options[index], "threads", "1", 0) }
        defer { for index in 0..<count { av_dict_free(&options[index]) } }
        return options.withUnsafeMutableBufferPointer { avformat_find_stream_info(format, $0.baseAddress) }
    }

    /// FFmpeg's demuxer for the container the bytes start with. The container is
    /// recognised by `MediaFormat`, as everywhere in photomill, and the demuxer named, so
    /// FFmpeg never guesses: its probing takes damaged or random bytes for MP3, images or
    /// raw streams of some kind.
    private static func demuxer(
        for bytes: UnsafeRawBufferPointer,
        path: String
    ) throws(ProcessingError) -> UnsafePointer<AVInputFormat> {
        guard !bytes.isEmpty else { throw ProcessingError(.notAnImage, "\(path): the file is empty") }
        let head = [UInt8](bytes.prefix(MediaFormat.headLength))
        guard let format = MediaFormat(sniffing: head) else {
            throw ProcessingError(
                .notAnImage,
                "\(path): not a video (no known video container signature in the first bytes)"
            )
        }
        let name: String
        switch format {
        case .mov, .mp4, .m4v, .threeGP: name = "mov"
        case .avi: name = "avi"
        case .mkv, .webm: name = "matroska"
        case .mts: name = "mpegts"
        default: throw ProcessingError(.notAnImage, "\(path): not a video (its content is \(format.rawValue))")
        }
        guard let demuxer = av_find_input_format(name) else {
            throw ProcessingError(
                .unsupportedFormat,
                "\(path): \(format.rawValue) video that this FFmpeg cannot read (no \(name) demuxer)"
            )
        }
        return demuxer
    }

    /// The video stream with the most pixels (the first of equals), leaving out cover art
    /// (attached pictures); nil when there is none.
    private static func videoStream(of format: UnsafeMutablePointer<AVFormatContext>) -> UnsafeMutablePointer<AVStream>?
    {
        var best: UnsafeMutablePointer<AVStream>?
        var bestArea = -1
        for index in 0..<Int(format.pointee.nb_streams) {
            guard let stream = format.pointee.streams[index], let parameters = stream.pointee.codecpar,
                parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
                stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
            else { continue }
            let area = Int(parameters.pointee.width) * Int(parameters.pointee.height)
            if area > bestArea {
                best = stream
                bestArea = area
            }
        }
        return best
    }

    /// "1 audio stream", "1 audio stream, 1 data stream", "no streams".
    private static func streamSummary(of format: UnsafeMutablePointer<AVFormatContext>) -> String {
        var counts: [(String, Int)] = []
        for index in 0..<Int(format.pointee.nb_streams) {
            let type = format.pointee.streams[index]!.pointee.codecpar.pointee.codec_type
            let name = av_get_media_type_string(type).map { String(cString: $0) } ?? "unknown"
            if let at = counts.firstIndex(where: { $0.0 == name }) {
                counts[at].1 += 1
            } else {
                counts.append((name, 1))
            }
        }
        guard !counts.isEmpty else { return "no streams" }
        return counts.map { "\($0.1) \($0.0) stream\($0.1 == 1 ? "" : "s")" }.joined(separator: ", ")
    }

    /// The error for a failed FFmpeg call: `.timeout` when the deadline interrupted it,
    /// else `.corrupt` — the container was recognised from its first bytes, so what
    /// FFmpeg cannot parse is damaged or truncated ("moov atom not found").
    static func failure(
        _ status: Int32,
        while stage: String,
        path: String,
        input: MemoryInput,
        timeLimit: Double
    ) -> ProcessingError {
        if status == FFmpeg.exit || input.isPastDeadline {
            _ = FFmpeg.takeLoggedError()
            return ProcessingError(.timeout, "\(path): gave up \(stage) after \(String(format: "%g", timeLimit)) s")
        }
        return ProcessingError(.corrupt, "\(path): video data is damaged: \(FFmpeg.cause(of: status))")
    }

    func failure(_ status: Int32, while stage: String) -> ProcessingError {
        Self.failure(status, while: stage, path: path, input: input, timeLimit: timeLimit)
    }
}
