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

extension VideoFile {
    /// What the container says about the video, as photomill's record (`mediaType` video).
    /// Each field from the first source that has a valid value; garbage stays nil, never 0
    /// or "":
    ///
    /// - `dateTaken`: Apple's `com.apple.quicktime.creationdate` (local time and offset),
    ///   else `creation_time` (the movie header's UTC date) — `VideoDate`.
    /// - `pixelWidth`, `pixelHeight`: the stored size, before the display matrix turns it
    ///   (exiftool's ImageWidth/ImageHeight); `orientation`: the display matrix.
    /// - `cameraMake`, `cameraModel`: Apple's keys, the user-data atoms ©mak/©mod (FFmpeg's
    ///   `make`/`model`), Android's `com.android.manufacturer`/`com.android.model`.
    /// - GPS: Apple's `com.apple.quicktime.location.ISO6709`, else ©xyz (`location`).
    /// - `contentIdentifier`: Apple's, shared by a Live Photo's still and video.
    var metadata: PhotoMetadata {
        var metadata = PhotoMetadata()
        metadata.mediaType = .video
        let parameters = stream.pointee.codecpar.pointee
        if parameters.width > 0, parameters.height > 0 {
            metadata.pixelWidth = Int(parameters.width)
            metadata.pixelHeight = Int(parameters.height)
        }
        metadata.orientation = orientation
        metadata.duration = duration
        metadata.videoCodec = codecName
        let rate = stream.pointee.avg_frame_rate
        if rate.num > 0, rate.den > 0 { metadata.frameRate = av_q2d(rate) }

        metadata.dateTaken =
            tag("com.apple.quicktime.creationdate").flatMap(VideoDate.iso8601)
            ?? tag("creation_time").flatMap(VideoDate.iso8601)
        metadata.cameraMake = tag("com.apple.quicktime.make") ?? tag("make") ?? tag("com.android.manufacturer")
        metadata.cameraModel = tag("com.apple.quicktime.model") ?? tag("model") ?? tag("com.android.model")
        if let point = (tag("com.apple.quicktime.location.ISO6709") ?? tag("location")).flatMap(ISO6709.init) {
            metadata.gpsLatitude = point.latitude
            metadata.gpsLongitude = point.longitude
        }
        metadata.contentIdentifier = tag("com.apple.quicktime.content.identifier")
        return metadata
    }

    /// Seconds: the container's duration (the movie header's, which exiftool reports), else
    /// the video stream's; nil when neither is known.
    var duration: Double? {
        let whole = format.pointee.duration
        if whole != FFmpeg.noTimestamp, whole > 0 { return Double(whole) / Double(AV_TIME_BASE) }
        let own = stream.pointee.duration
        let base = stream.pointee.time_base
        guard own != FFmpeg.noTimestamp, own > 0, base.num > 0, base.den > 0 else { return nil }
        return Double(own) * av_q2d(base)
    }

    /// FFmpeg's name of the codec ("h264", "hevc", "vp9"); nil for a codec FFmpeg does not
    /// know (an unknown four-character code).
    var codecName: String? {
        let id = stream.pointee.codecpar.pointee.codec_id
        guard id != AV_CODEC_ID_NONE, let name = avcodec_get_name(id) else { return nil }
        return String(cString: name)
    }

    /// The EXIF orientation (1…8) of the display matrix; nil without one.
    var orientation: Int? { displayMatrix.flatMap(DisplayMatrix.orientation) }

    /// The video stream's display matrix (nine numbers), when the container has one. The
    /// MP4/QuickTime demuxer exports it only when it is not the identity.
    var displayMatrix: [Int32]? {
        var size = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size),
            size >= 9 * MemoryLayout<Int32>.size
        else { return nil }
        let raw = UnsafeRawPointer(data)
        return (0..<9).map { raw.loadUnaligned(fromByteOffset: $0 * MemoryLayout<Int32>.size, as: Int32.self) }
    }

    /// A metadata value of the container, else of the video stream, trimmed; nil when
    /// absent or blank. FFmpeg's keys are matched without regard to case.
    func tag(_ key: String) -> String? {
        for dictionary in [format.pointee.metadata, stream.pointee.metadata] {
            guard let entry = av_dict_get(dictionary, key, nil, 0), let value = entry.pointee.value else { continue }
            let text = String(cString: value).trimmingWhitespace
            if !text.isEmpty { return text }
        }
        return nil
    }
}
