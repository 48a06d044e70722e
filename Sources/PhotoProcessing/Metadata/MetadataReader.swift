import Foundation
import PhotomillCore

/// Reads `PhotoMetadata` from a photo's EXIF (libexif) and its image header (libvips).
enum MetadataReader {
    /// - Parameters:
    ///   - fileBytes: the whole file; for JPEG libexif finds the APP1 segment itself.
    ///   - exifBlob: the `exif-data` libvips found in a HEIF/PNG/WebP container, if any.
    ///   - header: stored pixel size and the loader that opened it.
    static func read(fileBytes: UnsafeRawBufferPointer, format: ImageFormat?, exifBlob: [UInt8]?,
                     header: (width: Int, height: Int, rotatedByLoader: Bool)?) -> PhotoMetadata {
        var metadata = PhotoMetadata()
        let exif: ExifReader?
        switch format {
        case .jpeg, .tiff: exif = ExifReader(bytes: fileBytes)
        default: exif = exifBlob.flatMap { blob in blob.withUnsafeBytes { ExifReader(bytes: $0) } }
        }
        if let exif { fill(&metadata, from: exif) }
        if let header {
            // Some loaders (libheif) rotate to display orientation while decoding the
            // header; report the stored size, as EXIF readers do.
            let swap = header.rotatedByLoader && (5...8).contains(metadata.orientation ?? 1)
            metadata.pixelWidth = swap ? header.height : header.width
            metadata.pixelHeight = swap ? header.width : header.height
        }
        return metadata
    }

    static func fill(_ metadata: inout PhotoMetadata, from exif: ExifReader) {
        metadata.cameraMake = exif.string(.zero, ExifTag.make)
        metadata.cameraModel = exif.string(.zero, ExifTag.model)
        metadata.lensModel = exif.string(.exif, ExifTag.lensModel)
        if let value = exif.number(.zero, ExifTag.orientation), let orientation = Int(exactly: value),
           (1...8).contains(orientation) {
            metadata.orientation = orientation
        }
        metadata.dateTaken = dateTaken(exif)

        metadata.aperture = positive(exif.number(.exif, ExifTag.fNumber))
            ?? positive(exif.number(.exif, ExifTag.apertureValue).map { pow(2, $0 / 2) })
        metadata.shutterSpeed = positive(exif.number(.exif, ExifTag.exposureTime))
            ?? positive(exif.number(.exif, ExifTag.shutterSpeedValue).map { pow(2, -$0) })
        if let iso = positive(exif.number(.exif, ExifTag.isoSpeedRatings)), iso >= 1 { metadata.iso = Int(iso) }
        metadata.focalLength = positive(exif.number(.exif, ExifTag.focalLength))

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

    /// DateTimeOriginal, then DateTimeDigitized, then DateTime; each with its own offset tag.
    private static func dateTaken(_ exif: ExifReader) -> String? {
        let candidates: [(ExifIFD, UInt32, UInt32)] = [
            (.exif, ExifTag.dateTimeOriginal, ExifTag.offsetTimeOriginal),
            (.exif, ExifTag.dateTimeDigitized, ExifTag.offsetTimeDigitized),
            (.zero, ExifTag.dateTime, ExifTag.offsetTime),
        ]
        for (ifd, tag, offsetTag) in candidates {
            guard let raw = exif.string(ifd, tag), let local = ExifDate.iso8601(fromExif: raw) else { continue }
            let offset = exif.string(.exif, offsetTag).flatMap(ExifDate.offset(fromExif:))
            return local + (offset ?? "")
        }
        return nil
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
