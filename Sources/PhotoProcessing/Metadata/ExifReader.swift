import CExif
import Foundation

/// Owns a libexif `ExifData` and reads typed values from it.
final class ExifReader {
    private let data: UnsafeMutablePointer<ExifData>
    private let order: ExifByteOrder

    /// Parses an "Exif\0\0"-prefixed block (see `ExifBlob`). Nil when it holds no entry.
    init?(blob: [UInt8]) {
        guard blob.count > 6, blob.count <= Int(UInt32.max) else { return nil }
        let loaded = blob.withUnsafeBufferPointer { pm_exif_load($0.baseAddress, UInt32($0.count)) }
        guard let loaded else { return nil }
        let empty = (0..<Int(EXIF_IFD_COUNT.rawValue)).allSatisfy { ifd in
            withUnsafePointer(to: loaded.pointee.ifd) { tuple in
                tuple.withMemoryRebound(to: UnsafeMutablePointer<ExifContent>?.self, capacity: Int(EXIF_IFD_COUNT.rawValue)) {
                    ($0[ifd]?.pointee.count ?? 0) == 0
                }
            }
        }
        if empty {
            exif_data_unref(loaded)
            return nil
        }
        data = loaded
        order = exif_data_get_byte_order(loaded)
    }

    deinit { exif_data_unref(data) }

    private func entry(_ ifd: ExifIFD, _ tag: UInt32) -> UnsafeMutablePointer<ExifEntry>? {
        guard let entry = pm_exif_get(data, ifd.raw, tag), entry.pointee.data != nil else { return nil }
        let needed = Int(exif_format_get_size(entry.pointee.format)) * Int(entry.pointee.components)
        guard needed > 0, Int(entry.pointee.size) >= needed else { return nil }
        return entry
    }

    /// An ASCII (or UNDEFINED, as some cameras write) value, trimmed of padding and NULs.
    func string(_ ifd: ExifIFD, _ tag: UInt32) -> String? {
        guard let entry = entry(ifd, tag),
              entry.pointee.format == EXIF_FORMAT_ASCII || entry.pointee.format == EXIF_FORMAT_UNDEFINED
        else { return nil }
        let raw = UnsafeBufferPointer(start: entry.pointee.data, count: Int(entry.pointee.size))
        let upToNul = raw.prefix { $0 != 0 }
        let text = String(decoding: upToNul, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
        return text.isEmpty ? nil : text
    }

    /// The numeric components of an integer or rational entry, as Doubles.
    /// A rational with a zero denominator is garbage and yields nil for the whole entry.
    func numbers(_ ifd: ExifIFD, _ tag: UInt32) -> [Double]? {
        guard let entry = entry(ifd, tag) else { return nil }
        let format = entry.pointee.format
        let size = Int(exif_format_get_size(format))
        var values: [Double] = []
        for index in 0..<Int(entry.pointee.components) {
            let pointer = entry.pointee.data + index * size
            switch format {
            case EXIF_FORMAT_BYTE: values.append(Double(pointer.pointee))
            case EXIF_FORMAT_SHORT: values.append(Double(exif_get_short(pointer, order)))
            case EXIF_FORMAT_SSHORT: values.append(Double(exif_get_sshort(pointer, order)))
            case EXIF_FORMAT_LONG: values.append(Double(exif_get_long(pointer, order)))
            case EXIF_FORMAT_SLONG: values.append(Double(exif_get_slong(pointer, order)))
            case EXIF_FORMAT_RATIONAL:
                let value = exif_get_rational(pointer, order)
                guard value.denominator != 0 else { return nil }
                values.append(Double(value.numerator) / Double(value.denominator))
            case EXIF_FORMAT_SRATIONAL:
                let value = exif_get_srational(pointer, order)
                guard value.denominator != 0 else { return nil }
                values.append(Double(value.numerator) / Double(value.denominator))
            default: return nil
            }
        }
        return values.isEmpty ? nil : values
    }

    func number(_ ifd: ExifIFD, _ tag: UInt32) -> Double? { numbers(ifd, tag)?.first }
}

/// The image file directories photomill reads and writes.
enum ExifIFD {
    case zero, exif, gps
    var raw: ExifIfd {
        switch self {
        case .zero: EXIF_IFD_0
        case .exif: EXIF_IFD_EXIF
        case .gps: EXIF_IFD_GPS
        }
    }
}

/// EXIF tag numbers (EXIF 2.32), named as in the standard.
enum ExifTag {
    static let make: UInt32 = 0x010F
    static let model: UInt32 = 0x0110
    static let orientation: UInt32 = 0x0112
    static let dateTime: UInt32 = 0x0132
    static let exposureTime: UInt32 = 0x829A
    static let fNumber: UInt32 = 0x829D
    static let isoSpeedRatings: UInt32 = 0x8827
    static let dateTimeOriginal: UInt32 = 0x9003
    static let dateTimeDigitized: UInt32 = 0x9004
    static let offsetTime: UInt32 = 0x9010
    static let offsetTimeOriginal: UInt32 = 0x9011
    static let offsetTimeDigitized: UInt32 = 0x9012
    static let shutterSpeedValue: UInt32 = 0x9201
    static let apertureValue: UInt32 = 0x9202
    static let focalLength: UInt32 = 0x920A
    static let lensModel: UInt32 = 0xA434
    static let gpsLatitudeRef: UInt32 = 0x0001
    static let gpsLatitude: UInt32 = 0x0002
    static let gpsLongitudeRef: UInt32 = 0x0003
    static let gpsLongitude: UInt32 = 0x0004
}
