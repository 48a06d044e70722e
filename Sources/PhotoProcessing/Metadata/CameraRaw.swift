import PhotomillCore

/// Where camera RAW formats keep the EXIF their camera wrote, and the image size exiftool
/// reports for them (its Composite ImageSize): LibRaw normalises makes and models
/// ("Fujifilm"/"S5Pro"), exiftool and photomill report the file's own.
enum CameraRaw {
    /// RAF: the embedded JPEG (offset and length at bytes 84 and 88, big-endian), whose
    /// APP1 holds the EXIF.
    static func rafJPEG(_ bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        let reader = BMFFReader(bytes: bytes)
        guard let offset = reader.uint32(at: 84), let length = reader.uint32(at: 88),
              Int(offset) <= bytes.count, Int(length) <= bytes.count - Int(offset) else { return nil }
        return Int(offset)..<(Int(offset) + Int(length))
    }

    /// RAF: RawImageCroppedSize (tag 0x111 of the directory whose offset is at byte 0x5C:
    /// a count, then tag, length, value; height first), which exiftool reports as ImageSize.
    static func rafCroppedSize(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        let reader = BMFFReader(bytes: bytes)
        guard let start = reader.uint32(at: 0x5C), let count = reader.uint32(at: Int(start)), count < 256 else { return nil }
        var at = Int(start) + 4
        for _ in 0..<count {
            guard let tag = reader.uint16(at: at), let length = reader.uint16(at: at + 2) else { return nil }
            if tag == 0x111, length >= 4, let height = reader.uint16(at: at + 4), let width = reader.uint16(at: at + 6),
               width > 0, height > 0 {
                return (Int(width), Int(height))
            }
            at += 4 + Int(length)
        }
        return nil
    }

    /// CR3: the TIFF structures in the Canon `uuid` box inside `moov` — CMT1 holds IFD0,
    /// CMT2 the EXIF IFD, CMT4 the GPS IFD (CMT3 is the maker note).
    static func cr3Directories(_ bytes: UnsafeRawBufferPointer) -> ExifDirectories {
        let reader = BMFFReader(bytes: bytes)
        let canon: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]
        guard let moov = reader.first("moov", in: 0..<bytes.count),
              let box = reader.boxes(in: moov).first(where: { $0.type == "uuid" && $0.uuid == canon }) else {
            return ExifDirectories(ifd0: nil, exif: nil, gps: nil)
        }
        let blocks = reader.boxes(in: box.payload)
        func block(_ name: String) -> ExifDirectories.Directory? {
            guard let payload = blocks.first(where: { $0.type == name })?.payload else { return nil }
            return ExifDirectories.first(in: TIFFStructure(header: UnsafeRawBufferPointer(rebasing: bytes[payload])))
        }
        return ExifDirectories(ifd0: block("CMT1"), exif: block("CMT2"), gps: block("CMT4"))
    }

    /// RW2: the ISO Panasonic writes in IFD0 (tag 0x0017, exiftool's PanasonicRaw ISO);
    /// its EXIF IFD has none.
    static func panasonicRawISO(_ directories: ExifDirectories) -> Int? {
        guard let ifd0 = directories.ifd0, let entry = ifd0.entries.first(0x0017),
              let iso = ifd0.tiff.integers(entry)?.first, iso > 0 else { return nil }
        return iso
    }

    /// exiftool's ImageSize for a TIFF-based RAW:
    /// - RW2: the sensor borders in IFD0 (right − left, bottom − top; tags 0x04–0x07);
    /// - CR2: ExifImageWidth/Height (the EXIF IFD's 0xA002/0xA003);
    /// - others: ImageWidth/ImageLength of the first directory marked as the full-resolution
    ///   image (NewSubfileType 0, or OldSubfileType 1), walking IFD0, its SubIFDs and the
    ///   next IFDs in the order exiftool reads them; else the first directory's.
    static func tiffImageSize(_ tiff: TIFFStructure, format: MediaFormat) -> (width: Int, height: Int)? {
        let directories = ExifDirectories(tiff: tiff)
        if format == .rw2, let ifd0 = directories.ifd0 {
            func value(_ tag: UInt16) -> Int? { ifd0.entries.first(tag).flatMap { tiff.integers($0)?.first } }
            if let top = value(0x04), let left = value(0x05), let bottom = value(0x06), let right = value(0x07),
               right > left, bottom > top {
                return (right - left, bottom - top)
            }
        }
        if format == .cr2, let exif = directories.exif,
           let width = exif.entries.first(0xA002).flatMap({ tiff.integers($0)?.first }),
           let height = exif.entries.first(0xA003).flatMap({ tiff.integers($0)?.first }), width > 0, height > 0 {
            return (width, height)
        }
        var walk = SizeWalk(tiff: tiff)
        var next = tiff.firstDirectoryOffset
        while next > 0, walk.visited.count < 64, !walk.visited.contains(next) {
            next = walk.visit(next, depth: 0)
        }
        return walk.fullResolution ?? walk.first
    }

    private struct SizeWalk {
        let tiff: TIFFStructure
        var visited: Set<Int> = []
        var first: (width: Int, height: Int)?
        var fullResolution: (width: Int, height: Int)?

        init(tiff: TIFFStructure) { self.tiff = tiff }

        /// Reads the directory at `offset` and its SubIFDs; returns the next IFD's offset.
        mutating func visit(_ offset: Int, depth: Int) -> Int {
            visited.insert(offset)
            guard let directory = tiff.directory(at: offset) else { return 0 }
            func value(_ tag: UInt16) -> Int? { directory.first(tag).flatMap { tiff.integers($0)?.first } }
            if let width = value(0x0100), let height = value(0x0101), width > 0, height > 0 {
                if first == nil { first = (width, height) }
                if fullResolution == nil, value(0x00FE) == 0 || value(0x00FF) == 1 { fullResolution = (width, height) }
            }
            if depth < 3, let subIFDs = directory.first(0x014A), let offsets = tiff.integers(subIFDs) {
                for child in offsets.prefix(16) where child > 0 && !visited.contains(child) && visited.count < 64 {
                    _ = visit(child, depth: depth + 1)
                }
            }
            return directory.nextOffset
        }
    }
}
