import Foundation
import PhotomillCore

/// Reads `PhotoMetadata` from a photo's or camera RAW's own structures, as exiftool reads
/// them: the EXIF directories (located with bounds-checked readers, parsed by libexif),
/// maker-note and vendor-segment values where EXIF lacks them, and the stored pixel size.
enum MetadataReader {
    /// - Parameters:
    ///   - fileBytes: the whole file.
    ///   - format: what `MediaFormat(sniffing:)` made of it; sets `mediaType`.
    ///   - vipsHeader: the size libvips' header load found, and its `exif-data` blob (used
    ///     for PNG, WebP and other containers photomill does not walk itself). Nil for RAW,
    ///     which libvips does not open.
    static func read(fileBytes: UnsafeRawBufferPointer, format: MediaFormat,
                     vipsHeader: (width: Int, height: Int, exifBlob: [UInt8]?)?) -> PhotoMetadata {
        var metadata = PhotoMetadata()
        metadata.mediaType = format.mediaType
        if let vipsHeader {
            metadata.pixelWidth = vipsHeader.width
            metadata.pixelHeight = vipsHeader.height
        }
        var size: (width: Int, height: Int)?
        switch format {
        case .jpeg:
            readJPEG(fileBytes, into: &metadata)
        case .heic, .heif, .avif:
            let layout = HEIFLayout(fileBytes)
            readTIFF(layout?.exif ?? vipsHeader?.exifBlob, into: &metadata)
            size = layout?.primarySize.map { ($0.width, $0.height) }
        case .raf:
            if let jpeg = CameraRaw.rafJPEG(fileBytes) { readJPEG(UnsafeRawBufferPointer(rebasing: fileBytes[jpeg]), into: &metadata) }
            size = CameraRaw.rafCroppedSize(fileBytes)
        case .cr3:
            let directories = CameraRaw.cr3Directories(fileBytes)
            fill(&metadata, from: directories)
            if let ifd0 = directories.ifd0 { size = CameraRaw.tiffImageSize(ifd0.tiff, format: .cr3) }
        case .tiff, .cr2, .nef, .nrw, .arw, .sr2, .dng, .orf, .rw2, .pef, .srw:
            if let tiff = TIFFStructure(header: fileBytes) {
                let directories = ExifDirectories(tiff: tiff)
                var vendor = VendorValues()
                if format == .rw2 { vendor.iso = CameraRaw.panasonicRawISO(directories) }
                fill(&metadata, from: directories, vendor: vendor)
                if format.mediaType == .raw { size = CameraRaw.tiffImageSize(tiff, format: format) }
            }
        case .crw, .mrw, .x3f, .kyoceraRaw, .iiq, .threeFR:
            // Not read yet: only the media type is reported.
            break
        case .png, .gif, .webp, .bmp, .jxl, .mov, .mp4, .m4v, .threeGP, .avi, .mkv, .webm, .mts:
            readTIFF(vipsHeader?.exifBlob, into: &metadata)
        }
        if let size {
            metadata.pixelWidth = size.width
            metadata.pixelHeight = size.height
        }
        return metadata
    }

    /// A JPEG's APP1 EXIF, and its APP12 Picture Info where EXIF lacks a value.
    private static func readJPEG(_ bytes: UnsafeRawBufferPointer, into metadata: inout PhotoMetadata) {
        let segments = JPEGSegments(bytes)
        let vendor = segments.pictureInfo.map { VendorValues(pictureInfo: UnsafeRawBufferPointer(rebasing: bytes[$0])) }
        let directories = segments.exif.flatMap { TIFFStructure(header: UnsafeRawBufferPointer(rebasing: bytes[$0])) }
            .map(ExifDirectories.init(tiff:))
        fill(&metadata, from: directories ?? ExifDirectories(ifd0: nil, exif: nil, gps: nil), vendor: vendor ?? VendorValues())
    }

    /// An EXIF block that is a TIFF structure, with or without an "Exif\0\0" header.
    private static func readTIFF(_ blob: [UInt8]?, into metadata: inout PhotoMetadata) {
        guard let blob else { return }
        blob.withUnsafeBytes { raw in
            let start = raw.starts(with: Array("Exif\0\0".utf8)) ? 6 : 0
            guard let tiff = TIFFStructure(header: UnsafeRawBufferPointer(rebasing: raw[start...])) else { return }
            fill(&metadata, from: ExifDirectories(tiff: tiff))
        }
    }

    /// The EXIF fields (libexif on the rebuilt block), then what maker notes and vendor
    /// segments add where EXIF is silent.
    static func fill(_ metadata: inout PhotoMetadata, from directories: ExifDirectories,
                     vendor: VendorValues = VendorValues()) {
        var vendor = vendor
        let notes = VendorValues(makerNoteOf: directories)
        vendor.iso = vendor.iso ?? notes.iso
        vendor.dateTaken = vendor.dateTaken ?? notes.dateTaken
        metadata.contentIdentifier = notes.contentIdentifier
        let exif = ExifBlob.make(directories).flatMap(ExifReader.init(blob:))
        fill(&metadata, from: exif, vendor: vendor)
    }

    static func fill(_ metadata: inout PhotoMetadata, from exif: ExifReader?, vendor: VendorValues) {
        func number(_ tag: UInt32) -> Double? { exif?.number(.exif, tag) ?? exif?.number(.zero, tag) }
        metadata.cameraMake = exif?.string(.zero, ExifTag.make)
        metadata.cameraModel = exif?.string(.zero, ExifTag.model)
        metadata.lensModel = exif?.string(.exif, ExifTag.lensModel)
        if let value = exif?.number(.zero, ExifTag.orientation), let orientation = Int(exactly: value),
           (1...8).contains(orientation) {
            metadata.orientation = orientation
        }
        metadata.dateTaken = exif.flatMap { dateTaken($0, vendorDate: vendor.dateTaken) } ?? vendor.dateTaken

        // Each value from the EXIF IFD, else the copy some cameras write in IFD0, else the
        // vendor's, else (photomill's own fallback) the APEX value.
        metadata.aperture = positive(number(ExifTag.fNumber)) ?? vendor.fNumber
            ?? positive(number(ExifTag.apertureValue).map { pow(2, $0 / 2) })
        metadata.shutterSpeed = positive(number(ExifTag.exposureTime)) ?? vendor.exposureTime
            ?? positive(number(ExifTag.shutterSpeedValue).map { pow(2, -$0) })
        if let iso = positive(number(ExifTag.isoSpeedRatings)), iso >= 1, iso < 1e9 { metadata.iso = Int(iso) }
        else { metadata.iso = vendor.iso }
        metadata.focalLength = positive(number(ExifTag.focalLength))

        guard let exif else { return }
        metadata.gpsLatitude = coordinate(exif, ExifTag.gpsLatitude, ref: ExifTag.gpsLatitudeRef,
                                          negative: "S", limit: 90)
        metadata.gpsLongitude = coordinate(exif, ExifTag.gpsLongitude, ref: ExifTag.gpsLongitudeRef,
                                           negative: "W", limit: 180)
        if metadata.gpsLatitude == nil || metadata.gpsLongitude == nil {
            metadata.gpsLatitude = nil
            metadata.gpsLongitude = nil
        }
    }

    private static func positive(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value > 0 else { return nil }
        return value
    }

    /// DateTimeOriginal (EXIF IFD, else its IFD0 copy), then the vendor's (a maker note's
    /// or Picture Info's, which exiftool ranks below EXIF's), then DateTimeDigitized, then
    /// DateTime; each with its own offset tag.
    private static func dateTaken(_ exif: ExifReader, vendorDate: String?) -> String? {
        let original: [(ExifIFD, UInt32, UInt32)] = [
            (.exif, ExifTag.dateTimeOriginal, ExifTag.offsetTimeOriginal),
            (.zero, ExifTag.dateTimeOriginal, ExifTag.offsetTimeOriginal),
        ]
        let others: [(ExifIFD, UInt32, UInt32)] = [
            (.exif, ExifTag.dateTimeDigitized, ExifTag.offsetTimeDigitized),
            (.zero, ExifTag.dateTime, ExifTag.offsetTime),
        ]
        func date(_ candidates: [(ExifIFD, UInt32, UInt32)]) -> String? {
            for (ifd, tag, offsetTag) in candidates {
                guard let raw = exif.string(ifd, tag), let local = ExifDate.iso8601(fromExif: raw) else { continue }
                let offset = (exif.string(.exif, offsetTag) ?? exif.string(.zero, offsetTag)).flatMap(ExifDate.offset(fromExif:))
                return local + (offset ?? "")
            }
            return nil
        }
        return date(original) ?? vendorDate ?? date(others)
    }

    /// Degrees, minutes, seconds with a hemisphere reference, as signed decimal degrees.
    private static func coordinate(_ exif: ExifReader, _ tag: UInt32, ref: UInt32, negative: String,
                                   limit: Double) -> Double? {
        guard let parts = exif.numbers(.gps, tag), parts.count >= 1, parts.allSatisfy({ $0 >= 0 }) else { return nil }
        let minutes = parts.count > 1 ? parts[1] : 0
        let seconds = parts.count > 2 ? parts[2] : 0
        let degrees = parts[0] + minutes / 60 + seconds / 3600
        guard degrees <= limit else { return nil }
        let reference = exif.string(.gps, ref)?.uppercased()
        return reference == negative ? -degrees : degrees
    }
}

/// EXIF date strings ("YYYY:MM:DD HH:MM:SS") to ISO 8601.
enum ExifDate {
    static func iso8601(fromExif raw: String) -> String? {
        // Accept ':' or '-' as date separators, 'T' or ' ' between date and time.
        let digits = raw.unicodeScalars.filter { CharacterSet.decimalDigits.contains($0) }.map { Int($0.value - 48) }
        guard digits.count >= 14 else { return nil }
        func number(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + digits[$1] } }
        let year = number(0..<4), month = number(4..<6), day = number(6..<8)
        let hour = number(8..<10), minute = number(10..<12), second = number(12..<14)
        guard (1800...2999).contains(year), (1...12).contains(month), (1...31).contains(day),
              (0...24).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second)
    }

    /// "+02:00" / "-05:30"; nil for blanks and nonsense.
    static func offset(fromExif raw: String) -> String? {
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard text.count == 6, let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let parts = text.dropFirst().split(separator: ":")
        guard parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]),
              (0...14).contains(hours), (0...59).contains(minutes) else { return nil }
        return text
    }
}
