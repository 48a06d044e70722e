import PhotomillCore

extension PhotoProcessor {
    /// A camera RAW: metadata from its own TIFF/CIFF/ISO-BMFF structures
    /// (`MetadataReader`, as exiftool reads them), pictures from LibRaw (`RawDecoder`: the
    /// embedded preview when large enough, else a half-size rendering). A RAW whose image
    /// data is missing still has its metadata; only its pictures fail.
    func openRaw(_ bytes: UnsafeRawBufferPointer, format: MediaFormat, path: String,
                 wantsMetadata: Bool) throws(ProcessingError) -> PictureSource {
        let metadata = wantsMetadata ? MetadataReader.read(fileBytes: bytes, format: format, vipsHeader: nil) : nil
        let limit = parameters.pixelLimit
        return PictureSource(metadata: metadata, picture: { side throws(ProcessingError) in
            try RawDecoder.picture(of: bytes, path: path, longestSide: side, pixelLimit: limit)
        })
    }
}
