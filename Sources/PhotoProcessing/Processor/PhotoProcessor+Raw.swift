import PhotomillCore

extension PhotoProcessor {
    /// A camera RAW: metadata from its own TIFF/CIFF/ISO-BMFF structures
    /// (`MetadataReader`, as exiftool reads them), pictures from LibRaw (`RawDecoder`: the
    /// embedded preview when large enough, else a half-size rendering). A RAW whose image
    /// data is missing still has its metadata; only its pictures fail.
    ///
    /// `bytes` may be a file to read regions of (`process(path:)` for a job that wants
    /// only pictures): metadata needs the whole file in memory.
    func openRaw(_ bytes: RawBytes, format: MediaFormat, path: String, wantsMetadata: Bool) -> PictureSource {
        var metadata: PhotoMetadata?
        if wantsMetadata, case .memory(let all) = bytes {
            metadata = MetadataReader.read(fileBytes: all, format: format, vipsHeader: nil)
        }
        let limit = parameters.pixelLimit
        return PictureSource(metadata: metadata, picture: { side throws(ProcessingError) in
            try RawDecoder.picture(of: bytes, format: format, path: path, longestSide: side, pixelLimit: limit)
        })
    }
}
