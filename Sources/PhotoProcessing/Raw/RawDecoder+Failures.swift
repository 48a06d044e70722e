import PhotomillCore

extension RawDecoder {
    /// Why LibRaw could not open the file.
    ///
    /// LibRaw answers "unsupported file format" both for a camera it does not know and
    /// for a file whose headers are too damaged to find the raw image in, so the
    /// camera it read decides: one on LibRaw's own list means the file is damaged
    /// (`corrupt`); one it does not list, `unsupported-format` (a newer LibRaw may read
    /// it). No camera at all means the header itself is damaged: photomill only hands
    /// LibRaw files whose signature is a RAW format LibRaw knows.
    static func openFailure(_ error: LibRawError, handle: LibRawHandle?, path: String) -> ProcessingError {
        if error.isTooBig {
            return ProcessingError(.tooLarge, "\(path): LibRaw refuses the RAW as too large (\(error.reason))")
        }
        guard error.isUnsupported else {
            return ProcessingError(.corrupt, "\(path): the RAW's header is damaged (LibRaw: \(error.reason))")
        }
        guard let camera = handle?.camera, !camera.make.isEmpty else {
            return ProcessingError(.corrupt, "\(path): LibRaw finds no camera in the RAW's header (\(error.reason))")
        }
        let name = "\(camera.make) \(camera.model)"
        if LibRawCameras.lists(make: camera.make, model: camera.model) {
            return ProcessingError(.corrupt, "\(path): the RAW holds no usable image data (LibRaw supports the \(name) but finds no raw image in the file: \(error.reason))")
        }
        return ProcessingError(.unsupportedFormat, "\(path): LibRaw \(LibRawCameras.version) does not support the \(name) (\(error.reason))")
    }

    /// Why the samples could not be unpacked or rendered.
    static func dataFailure(_ error: LibRawError, path: String, previewProblem: String) -> ProcessingError {
        if error.isTooBig {
            return ProcessingError(.tooLarge, "\(path): LibRaw cannot render the RAW in the memory it allows (\(error.reason))")
        }
        if error.isUnsupported {
            return ProcessingError(.unsupportedFormat, "\(path): LibRaw \(LibRawCameras.version) cannot decode this RAW's image data (\(error.reason); preview: \(previewProblem))")
        }
        return ProcessingError(.corrupt, "\(path): the RAW's image data is damaged (LibRaw: \(error.reason); preview: \(previewProblem))")
    }
}
