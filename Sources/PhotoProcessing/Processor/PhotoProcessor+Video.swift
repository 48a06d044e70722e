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

import PhotomillCore

extension PhotoProcessor {
    /// A video: its metadata from the container (`VideoFile.metadata`) and what camcorders
    /// and action cameras keep elsewhere (AVCHD's MDPM in the H.264 stream, GoPro's GPMF
    /// and `fdsc` tracks), its pictures from a poster frame (the keyframe about 1 s or
    /// 10 % in, upright). Videos have no OCR: the scan queues none, and a job that asks
    /// anyway gets `unsupported-format` (`PhotoProcessor.videosFailOCR`).
    ///
    /// The `VideoFile` lives as long as the closure that decodes its poster frames, which
    /// `process` drops before `bytes` goes. Opening it is the one step metadata and
    /// pictures share: a container FFmpeg cannot read fails both.
    func openVideo(
        _ bytes: UnsafeRawBufferPointer,
        format: MediaFormat,
        path: String,
        wantsMetadata: Bool
    ) throws(ProcessingError) -> (source: PictureSource, metadata: PhotoMetadata?) {
        let video = try VideoFile(bytes: bytes, path: path)
        var metadata: PhotoMetadata?
        if wantsMetadata {
            var described = video.metadata
            if format == .mts, let avchd = video.avchdMetadata() {
                described.dateTaken = described.dateTaken ?? avchd.dateTaken
                described.cameraMake = described.cameraMake ?? avchd.make
                described.cameraModel = described.cameraModel ?? avchd.model
                described.shutterSpeed = described.shutterSpeed ?? avchd.exposureTime
                described.aperture = described.aperture ?? avchd.fNumber
            }
            if [.mp4, .mov].contains(format), let gopro = GoProMetadata(bytes) {
                if described.cameraModel == nil, let model = gopro.model {
                    described.cameraModel = model
                    described.cameraMake = described.cameraMake ?? "GoPro"
                }
                if described.gpsLatitude == nil, let latitude = gopro.latitude, let longitude = gopro.longitude {
                    (described.gpsLatitude, described.gpsLongitude) = (latitude, longitude)
                }
            }
            metadata = described
        }
        let limit = parameters.pixelLimit
        let source = PictureSource(
            picture: { side throws(ProcessingError) in
                try video.posterFrame(longestSide: side, pixelLimit: limit)
            },
            noOCR: ProcessingError(.unsupportedFormat, "\(path): \(format.rawValue) video: videos have no OCR")
        )
        return (source, metadata)
    }
}
