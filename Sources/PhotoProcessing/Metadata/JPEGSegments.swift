/// The metadata segments of a JPEG file, found by walking its markers up to the image data
/// with every length checked. libexif's own search gives up at the first segment that is
/// not an APPn (a quantisation table before the EXIF, say); exiftool, like this, reads on.
struct JPEGSegments {
    /// The TIFF structure of the first APP1 "Exif\0\0" segment.
    var exif: Range<Int>?
    /// The payload of an APP12 "Picture Info" segment (old Olympus, Agfa, Polaroid cameras).
    var pictureInfo: Range<Int>?

    init(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return }
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { return }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }                       // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }   // no length
            if marker == 0xDA || marker == 0xD9 { return }                 // image data, end
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { return }
            let payload = (at + 4)..<(at + 2 + length)
            let head = UnsafeRawBufferPointer(rebasing: bytes[payload])
            if marker == 0xE1, exif == nil, head.starts(with: Array("Exif\0\0".utf8)) {
                exif = (payload.lowerBound + 6)..<payload.upperBound
            } else if marker == 0xEC, pictureInfo == nil, !head.starts(with: Array("Ducky".utf8)) {
                pictureInfo = payload
            }
            at += 2 + length
        }
    }
}
