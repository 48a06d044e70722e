import Foundation
import PhotomillCore

extension PhotoProcessor {
    /// A still that libvips decodes: JPEG, PNG, GIF, TIFF, WebP, BMP, HEIC/HEIF/AVIF, JPEG XL.
    ///
    /// Pictures only (the metadata is read apart, `MetadataReader`), with `vips_thumbnail`
    /// (shrink-on-load, EXIF orientation applied) — except that libheif hands HEIF pixels
    /// over with only the container's `irot`/`imir` applied and libvips then drops the
    /// EXIF orientation, so a HEIF without those boxes is turned by its EXIF orientation
    /// here (iPhone 7 HEICs: orientation 6, no `irot`; `exifOrientation`, which the caller
    /// read with the metadata). With them, the EXIF value describes
    /// the same turn and is not applied again. A HEIF grid (how phones store their photos)
    /// is decoded tile by tile (`TiledHEIF`), never whole at full size.
    func openStill(_ bytes: UnsafeRawBufferPointer, format: MediaFormat, path: String,
                   exifOrientation: Int?) throws(ProcessingError) -> PictureSource {
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
            throw failure
        }

        var turn = 1
        var tiled: TiledHEIF?
        if isHEIF, let items = HEIFItems(bytes) {
            let layout = HEIFLayout(items)
            if layout.rotation == 0, layout.mirror == nil { turn = exifOrientation ?? 1 }
            tiled = TiledHEIF(items, exifOrientation: exifOrientation ?? 1)
        }
        let (width, height, limit) = (header.width, header.height, parameters.pixelLimit)
        return PictureSource(picture: { side throws(ProcessingError) in
            try ProcessingError.checkPixels(width: width, height: height, limit: limit, path: path)
            if let picture = try tiled?.picture(side, path: path, pixelLimit: limit) { return picture }
            return try Self.damaged(path) { () throws(VipsError) in
                try VipsImageRef.thumbnail(of: bytes, size: side).oriented(turn)
            }
        })
    }
}
