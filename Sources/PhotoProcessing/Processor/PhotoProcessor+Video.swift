import PhotomillCore

extension PhotoProcessor {
    /// A video: metadata from its container (`VideoFile.metadata`), pictures from a poster
    /// frame (the keyframe about 1 s or 10 % in, upright). Videos have no OCR: the scan
    /// queues none, and a job that asks anyway gets `unsupported-format`
    /// (`PhotoProcessor.videosFailOCR`).
    ///
    /// The `VideoFile` lives as long as the closure that decodes its poster frames, which
    /// `process` drops before `bytes` goes.
    func openVideo(_ bytes: UnsafeRawBufferPointer, format: MediaFormat, path: String) throws(ProcessingError) -> PictureSource {
        let video = try VideoFile(bytes: bytes, path: path)
        let limit = parameters.pixelLimit
        return PictureSource(metadata: video.metadata, picture: { side throws(ProcessingError) in
            try video.posterFrame(longestSide: side, pixelLimit: limit)
        }, noOCR: ProcessingError(.unsupportedFormat, "\(path): \(format.rawValue) video: videos have no OCR"))
    }
}
