import CHeif

/// One tile of a HEIF grid — a one-image HEIF (`HEIFGrid.tileFile`) — decoded by libheif
/// to 8-bit RGB, as libheif decodes each tile of a grid it decodes whole (a decoder of
/// its own per tile, the same colour conversion).
enum HEIFTileDecoder {
    /// What libheif said when a call failed.
    struct Failure: Error {
        let message: String
    }

    private static let initialised: Void = { _ = heif_init(nil) }()

    /// The tile's pixels, copied into an image libvips owns. `file` is only read while
    /// this runs.
    static func decode(_ file: [UInt8]) throws(Failure) -> VipsImageRef {
        _ = initialised
        let tile = try HEIFDecoding()
        let decoded = file.withUnsafeBytes { bytes in
            Result { () throws(Failure) in
                try check(heif_context_read_from_memory_without_copy(tile.context, bytes.baseAddress, bytes.count, nil))
                try check(heif_context_get_primary_image_handle(tile.context, &tile.handle))
                try check(heif_decode_image(tile.handle, &tile.image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil))
                guard let image = tile.image else { throw Failure(message: "no decoded image") }
                return try pixels(of: image)
            }
        }
        return try decoded.get()
    }

    /// The interleaved RGB plane, copied row by row when libheif pads rows to a stride.
    private static func pixels(of image: OpaquePointer) throws(Failure) -> VipsImageRef {
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        let rowBytes = width * 3
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
              Int(stride) >= rowBytes else { throw Failure(message: "no interleaved RGB plane") }
        do {
            if Int(stride) == rowBytes {
                return try VipsImageRef.copying(UnsafeRawBufferPointer(start: plane, count: rowBytes * height),
                                                width: width, height: height, bands: 3)
            }
            var packed = [UInt8](repeating: 0, count: rowBytes * height)
            packed.withUnsafeMutableBytes { out in
                for row in 0..<height {
                    (out.baseAddress! + row * rowBytes).copyMemory(from: plane + row * Int(stride), byteCount: rowBytes)
                }
            }
            return try VipsImageRef.fromPixels(packed, width: width, height: height, bands: 3)
        } catch {
            throw Failure(message: "libvips: \(error.message)")
        }
    }

    private static func check(_ error: heif_error) throws(Failure) {
        guard error.code != heif_error_Ok else { return }
        throw Failure(message: error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)")
    }
}

/// One decode's libheif objects — the context (which reads the caller's bytes without
/// copying them: they must outlive it), the primary image's handle, the decoded image —
/// released in deinit.
private final class HEIFDecoding {
    let context: OpaquePointer
    var handle: OpaquePointer?
    var image: OpaquePointer?

    init() throws(HEIFTileDecoder.Failure) {
        guard let context = heif_context_alloc() else { throw HEIFTileDecoder.Failure(message: "no memory for a context") }
        self.context = context
    }

    deinit {
        if let image { heif_image_release(image) }
        if let handle { heif_image_handle_release(handle) }
        heif_context_free(context)
    }
}
