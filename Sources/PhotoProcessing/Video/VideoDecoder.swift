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

/// A decoder for one video stream, set up to turn single keyframes into pictures: one
/// thread (a worker processes one file per core), non-key frames skipped, and no picture
/// larger than the pixel limit ever allocated.
final class VideoDecoder {
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let frame: UnsafeMutablePointer<AVFrame>

    /// `.unsupportedFormat` when this FFmpeg has no decoder for the stream's codec.
    init(for stream: UnsafeMutablePointer<AVStream>, pixelLimit: Int, path: String) throws(ProcessingError) {
        let parameters = stream.pointee.codecpar!
        let id = parameters.pointee.codec_id
        guard let codec = avcodec_find_decoder(id) else {
            throw ProcessingError(
                .unsupportedFormat,
                "\(path): \(Self.codecDescription(parameters)) video that this FFmpeg cannot decode"
            )
        }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc() else {
            throw ProcessingError(.unreadable, "\(path): FFmpeg could not allocate a decoder (out of memory)")
        }
        self.context = context
        self.frame = frame
        guard avcodec_parameters_to_context(context, parameters) >= 0 else {
            throw ProcessingError(.corrupt, "\(path): video stream parameters are damaged")
        }
        context.pointee.pkt_timebase = stream.pointee.time_base
        context.pointee.thread_count = 1
        context.pointee.skip_frame = AVDISCARD_NONKEY
        // Decoders check every picture size against this before allocating it: a stream
        // whose sequence header claims more than the container said is refused too.
        context.pointee.max_pixels = Int64(pixelLimit)
        _ = FFmpeg.takeLoggedError()
        let status = avcodec_open2(context, codec, nil)
        guard status >= 0 else {
            // The decoder exists: what it refuses is the stream's setup (e.g. "Invalid NAL
            // unit size in extradata") unless it says the feature is missing.
            let damaged = status == FFmpeg.invalidData
            throw ProcessingError(
                damaged ? .corrupt : .unsupportedFormat,
                "\(path): cannot open the \(Self.codecDescription(parameters)) decoder: \(FFmpeg.cause(of: status))"
            )
        }
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&frame)
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&context)
    }

    /// The outcome of decoding one keyframe.
    enum Outcome {
        /// A picture, owned by the decoder until the next call.
        case picture(UnsafeMutablePointer<AVFrame>)
        /// The packet gave no picture; the code of the failed call, when one failed.
        case none(Int32?)
    }

    /// Decodes `packet` — a keyframe — on its own: sends it, then drains the decoder, so
    /// its picture comes out at once instead of after the frames a reordering codec would
    /// otherwise wait for. The decoder is reset afterwards, ready for another keyframe.
    func decodeAlone(_ packet: UnsafeMutablePointer<AVPacket>) -> Outcome {
        avcodec_flush_buffers(context)
        av_frame_unref(frame)
        let sent = avcodec_send_packet(context, packet)
        guard sent >= 0 else { return .none(sent) }
        _ = avcodec_send_packet(context, nil)
        // Draining returns the picture, or errors (one per frame that failed) and then
        // the end; a keyframe packet holds few frames, so a few turns are plenty.
        var failure: Int32?
        for _ in 0..<8 {
            let received = avcodec_receive_frame(context, frame)
            if received >= 0 { return .picture(frame) }
            if received == FFmpeg.endOfFile || received == FFmpeg.tryAgain { break }
            failure = received
        }
        return .none(failure)
    }

    /// "hevc", or "codec tag 'abcd'" for a codec FFmpeg does not know.
    static func codecDescription(_ parameters: UnsafeMutablePointer<AVCodecParameters>) -> String {
        let id = parameters.pointee.codec_id
        if id != AV_CODEC_ID_NONE, let name = avcodec_get_name(id) { return String(cString: name) }
        var tag = [CChar](repeating: 0, count: Int(AV_FOURCC_MAX_STRING_SIZE))
        av_fourcc_make_string(&tag, parameters.pointee.codec_tag)
        return "codec tag '\(FFmpeg.string(tag))'"
    }
}
