import Foundation
import PhotomillCore

extension PhotoProcessor {
    /// A still that libvips decodes: JPEG, PNG, GIF, TIFF, WebP, BMP, HEIC/HEIF/AVIF, JPEG XL.
    ///
    /// Metadata from photomill's own reader (`MetadataReader`), then the XMP packet libvips
    /// found inside the file where the EXIF is silent. Pictures with `vips_thumbnail`
    /// (shrink-on-load, EXIF orientation applied) — except that libheif hands HEIF pixels
    /// over with only the container's `irot`/`imir` applied and libvips then drops the
    /// EXIF orientation, so a HEIF without those boxes is turned by its EXIF orientation
    /// here (iPhone 7 HEICs: orientation 6, no `irot`). With them, the EXIF value describes
    /// the same turn and is not applied again. A HEIF grid (how phones store their photos)
    /// is decoded tile by tile (`TiledHEIF`), never whole at full size.
    func openStill(_ bytes: UnsafeRawBufferPointer, format: MediaFormat, path: String,
                   wantsMetadata: Bool) throws(ProcessingError) -> PictureSource {
        let isHEIF = [.heic, .heif, .avif].contains(format)
        let header: VipsImageRef
        do {
            header = try VipsImageRef.header(of: bytes)
        } catch {
            let failure = if error.message.contains("is not a known") || error.message.contains("not a known file format") {
                ProcessingError(.unsupportedFormat, "\(path): \(format.rawValue) image that this libvips cannot decode: \(error.message)")
            } else {
                ProcessingError(.corrupt, "\(path): \(format.rawValue) header is damaged: \(error.message)")
            }
            // libheif refuses a whole HEIF for one bad item (a tile's data cut off), while
            // photomill reads its metadata itself: that much is kept.
            guard isHEIF, wantsMetadata, HEIFItems(bytes) != nil else { throw failure }
            return PictureSource(metadata: MetadataReader.read(fileBytes: bytes, format: format, vipsHeader: nil),
                                 picture: { _ throws(ProcessingError) in throw failure })
        }
        var metadata: PhotoMetadata?
        if wantsMetadata || isHEIF {
            let exifBlob = format == .jpeg ? nil : header.blob("exif-data")
            metadata = MetadataReader.read(fileBytes: bytes, format: format, vipsHeader: (header.width, header.height, exifBlob))
        }
        if wantsMetadata, let packet = header.blob("xmp-data"), let embedded = try? XMPReader.read(Data(packet)) {
            metadata?.merge(embedded, replacing: false)
        }

        var turn = 1
        var tiled: TiledHEIF?
        if isHEIF, let items = HEIFItems(bytes) {
            let layout = HEIFLayout(items)
            if layout.rotation == 0, layout.mirror == nil { turn = metadata?.orientation ?? 1 }
            tiled = TiledHEIF(items, exifOrientation: metadata?.orientation ?? 1)
        }
        let (width, height, limit) = (header.width, header.height, parameters.pixelLimit)
        return PictureSource(metadata: metadata, picture: { side throws(ProcessingError) in
            try ProcessingError.checkPixels(width: width, height: height, limit: limit, path: path)
            if let picture = try tiled?.picture(side, path: path, pixelLimit: limit) { return picture }
            return try Self.damaged(path) { () throws(VipsError) in
                try VipsImageRef.thumbnail(of: bytes, size: side).oriented(turn)
            }
        })
    }
}
