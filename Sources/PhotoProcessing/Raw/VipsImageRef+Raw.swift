import CVips

extension VipsImageRef {
    /// Wraps packed 8-bit pixels that live in C memory (LibRaw's), copying them once;
    /// `fromPixels` would want them in a Swift array first, a second copy of the
    /// largest buffer a RAW decode makes.
    static func copying(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int, bands: Int) throws(VipsError) -> VipsImageRef {
        try Vips.ensureInitialised()
        guard let image = vips_image_new_from_memory_copy(pixels.baseAddress, pixels.count, Int32(width), Int32(height),
                                                         Int32(bands), VIPS_FORMAT_UCHAR) else {
            throw VipsError(message: Vips.takeError())
        }
        return VipsImageRef(image)
    }

    /// Computes the pixels now, into memory libvips owns. libvips reads lazily: an image
    /// loaded from a buffer reads that buffer when its pixels are asked for, so an image
    /// made from a preview in LibRaw's memory must be computed before the LibRaw handle
    /// is closed. Also where damaged JPEG data is noticed (`fail_on=error`).
    func inMemory() throws(VipsError) -> VipsImageRef {
        guard let copy = vips_image_copy_memory(pointer) else { throw VipsError(message: Vips.takeError()) }
        return VipsImageRef(copy)
    }
}
