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
import CVips
import PhotomillCore

extension VideoFile {
    /// When the poster frame is taken: one second in, or a tenth of a video shorter than
    /// ten seconds, so that it is past a fade-in yet inside even a 1-s clip. Zero when the
    /// duration is unknown.
    var posterTime: Double { duration.map { min(1, $0 / 10) } ?? 0 }

    /// The poster frame: the last keyframe shown at or before `posterTime`
    /// (`KeyframeSearch`), upright (the display matrix applied), 8-bit sRGB, its longest
    /// side at most `longestSide`, never upscaled.
    ///
    /// Refused (`.tooLarge`) before anything is decoded when the stored picture has more
    /// than `pixelLimit` pixels. `.unsupportedFormat` when FFmpeg has no decoder for the
    /// codec, `.corrupt` when no keyframe decodes within the search's limits or the data
    /// ends first, `.timeout` past `timeLimit`.
    func posterFrame(longestSide: Int, pixelLimit: Int) throws(ProcessingError) -> VipsImageRef {
        let parameters = stream.pointee.codecpar.pointee
        let width = Int(parameters.width)
        let height = Int(parameters.height)
        guard width > 0, height > 0 else {
            throw ProcessingError(.corrupt, "\(path): video data is damaged: the video stream has no picture size")
        }
        try ProcessingError.checkPixels(width: width, height: height, limit: pixelLimit, path: path)
        input.deadline = .now() + timeLimit
        _ = FFmpeg.takeLoggedError()
        let search = try KeyframeSearch(
            video: self,
            decoder: try VideoDecoder(for: stream, pixelLimit: pixelLimit, path: path)
        )
        let target = streamStart + ticks(seconds: posterTime)
        var decoded = try search.picture(notAfter: target)
        if decoded == nil, target > streamStart {
            // The index promised a keyframe the data does not deliver (a file cut short
            // after its index): the start is the next best.
            decoded = try search.picture(notAfter: streamStart)
        }
        guard let frame = decoded else {
            throw ProcessingError(
                .corrupt,
                "\(path): video data is damaged: \(search.problem ?? "the data ends before a picture could be decoded")"
            )
        }
        return try picture(from: frame, longestSide: longestSide)
    }

    /// How the picture's colours are coded, when they need converting to be shown as
    /// sRGB (HDR PQ or HLG, BT.2020 or P3 primaries): the frame's own colour description,
    /// else the stream's. Nil for SDR BT.709 and for what is not described.
    func colourEncoding(of frame: UnsafeMutablePointer<AVFrame>) -> ColourEncoding? {
        let parameters = stream.pointee.codecpar.pointee
        let primaries =
            frame.pointee.color_primaries != AVCOL_PRI_UNSPECIFIED
            ? frame.pointee.color_primaries : parameters.color_primaries
        let transfer = frame.pointee.color_trc != AVCOL_TRC_UNSPECIFIED ? frame.pointee.color_trc : parameters.color_trc
        let encoding = ColourEncoding(primariesCode: Int(primaries.rawValue), transferCode: Int(transfer.rawValue))
        return encoding?.needsConversion == true ? encoding : nil
    }

    /// The video stream's first timestamp.
    var streamStart: Int64 {
        stream.pointee.start_time == FFmpeg.noTimestamp ? 0 : stream.pointee.start_time
    }

    /// `seconds` in the stream's time base, rounded down.
    func ticks(seconds: Double) -> Int64 {
        let base = stream.pointee.time_base
        guard base.num > 0, base.den > 0 else { return 0 }
        return Int64((seconds / av_q2d(base)).rounded(.down))
    }

    /// The decoded picture scaled to RGB, wrapped for libvips and turned upright.
    private func picture(
        from frame: UnsafeMutablePointer<AVFrame>,
        longestSide: Int
    ) throws(ProcessingError) -> VipsImageRef {
        let aspect = av_guess_sample_aspect_ratio(format, stream, frame)
        let pixelAspect = aspect.num > 0 && aspect.den > 0 ? av_q2d(aspect) : 1
        let size = FrameScaler.fittedSize(
            width: Int(frame.pointee.width),
            height: Int(frame.pointee.height),
            aspect: (0.1...10).contains(pixelAspect) ? pixelAspect : 1,
            longestSide: longestSide
        )
        let encoding = colourEncoding(of: frame)
        guard let pixels = encoding == nil ? FrameScaler.rgb(frame, size: size) : FrameScaler.rgb16(frame, size: size)
        else {
            let name =
                av_get_pix_fmt_name(AVPixelFormat(rawValue: frame.pointee.format)).map { String(cString: $0) }
                ?? "unknown"
            throw ProcessingError(.unsupportedFormat, "\(path): cannot convert the video's \(name) pixels to RGB")
        }
        do {
            var image: VipsImageRef
            if let encoding {
                image = try VipsImageRef.fromPixels(
                    pixels,
                    width: size.width,
                    height: size.height,
                    bands: 3,
                    format: VIPS_FORMAT_USHORT
                )
                .convertedToSRGB(from: encoding)
            } else {
                image = try VipsImageRef.fromPixels(pixels, width: size.width, height: size.height, bands: 3)
            }
            return try image.oriented(orientation ?? 1)
        } catch {
            throw ProcessingError(.corrupt, "\(path): the poster frame cannot be turned upright: \(error.message)")
        }
    }
}
