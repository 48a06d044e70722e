import Foundation
import PhotomillCore

extension PhotoProcessor {
    /// A still that libvips decodes: JPEG, PNG, GIF, TIFF, WebP, BMP, HEIC/HEIF/AVIF, JPEG XL.
    ///
    /// Metadata from photomill's own reader (`MetadataReader`), then the XMP packet libvips
    /// found inside the file where the EXIF is silent. Pictures from `StillPictures`.
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

        let pictures = StillPictures(bytes, format: format, header: header, exifOrientation: metadata?.orientation ?? 1,
                                     path: path, pixelLimit: parameters.pixelLimit)
        return PictureSource(metadata: metadata, picture: { side throws(ProcessingError) in try pictures.picture(side) })
    }
}
