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

/// Converts a decoded picture to packed 8-bit RGB at a reduced size in one swscale pass:
/// the full-size picture is never converted to RGB, and no second resampling follows.
enum FrameScaler {
    /// The size of a picture `width`×`height` whose pixels are `aspect` times as wide as
    /// they are high, fitted within `longestSide` without upscaling: the shape is kept as
    /// it is displayed (a 720×480 frame of 32:27 pixels is a 4:3 picture).
    static func fittedSize(width: Int, height: Int, aspect: Double, longestSide: Int) -> (width: Int, height: Int) {
        let shownWidth = Double(width) * aspect
        let shownHeight = Double(height)
        let scale = min(1, Double(longestSide) / max(shownWidth, shownHeight))
        return (max(1, Int((shownWidth * scale).rounded())), max(1, Int((shownHeight * scale).rounded())))
    }

    /// The picture as RGB24 rows of `size.width * 3` bytes; nil when swscale cannot
    /// convert its pixel format.
    ///
    /// The YCbCr matrix and range are the frame's own (BT.709 for HD, BT.2020 for HDR,
    /// full range for JPEG-style "yuvj"), as FFmpeg's scale filter does; swscale's default
    /// is BT.601 limited range. Area averaging suits a reduction by a large factor.
    static func rgb(_ frame: UnsafeMutablePointer<AVFrame>, size: (width: Int, height: Int)) -> [UInt8]? {
        scaled(frame, size: size, to: AV_PIX_FMT_RGB24, sampleBytes: 1)
    }

    /// Like `rgb`, 16 bits a sample (RGB48, host order): for HDR and wide-gamut pictures,
    /// whose colours `ColourConverter` converts from these.
    static func rgb16(_ frame: UnsafeMutablePointer<AVFrame>, size: (width: Int, height: Int)) -> [UInt8]? {
        #if _endian(big)
        #error("RGB48 is asked for little-endian")
        #endif
        return scaled(frame, size: size, to: AV_PIX_FMT_RGB48LE, sampleBytes: 2)
    }

    private static func scaled(
        _ frame: UnsafeMutablePointer<AVFrame>,
        size: (width: Int, height: Int),
        to target: AVPixelFormat,
        sampleBytes: Int
    ) -> [UInt8]? {
        let source = frame.pointee
        let sourceFormat = AVPixelFormat(rawValue: source.format)
        guard source.width > 0, source.height > 0,
            let scaler = sws_getContext(
                source.width,
                source.height,
                sourceFormat,
                Int32(size.width),
                Int32(size.height),
                target,
                Int32(SWS_AREA | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT),
                nil,
                nil,
                nil
            )
        else { return nil }
        defer { sws_freeContext(scaler) }

        let fullRange =
            source.color_range == AVCOL_RANGE_JPEG
            || [
                AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P,
            ].contains(sourceFormat)
        // For RGB sources swscale refuses the call, and uses no matrix anyway.
        _ = sws_setColorspaceDetails(
            scaler,
            sws_getCoefficients(Int32(source.colorspace.rawValue)),
            fullRange ? 1 : 0,
            sws_getCoefficients(SWS_CS_DEFAULT),
            1,
            0,
            1 << 16,
            1 << 16
        )

        let stride = size.width * 3 * sampleBytes
        var pixels = [UInt8](repeating: 0, count: stride * size.height)
        let rows = pixels.withUnsafeMutableBufferPointer {
            pm_sws_scale_to_packed(scaler, frame, $0.baseAddress, Int32(stride))
        }
        return rows == Int32(size.height) ? pixels : nil
    }
}
