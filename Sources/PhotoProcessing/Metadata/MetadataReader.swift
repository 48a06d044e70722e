//===----------------------------------------------------------------------===//
//
// This source file is part of the photomill open source project
//
// Copyright (c) 2026 the photomill authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import PhotomillCore

/// Reads `PhotoMetadata` from a photo's or camera RAW's own metadata containers, never
/// from its pixels: a JPEG whose image data is cut short keeps every field its EXIF holds.
///
/// Who reads what (chosen by measurement, docs/processing.md "metadata"):
/// - exiv2 (`Exiv2Metadata`) for every container it knows: JPEG, TIFF and the TIFF-based
///   RAWs, CRW, MRW, RAF, RW2, ORF, PNG (`eXIf`, `Raw profile type exif`), WebP, GIF, BMP,
///   and HEIF/AVIF/JPEG XL containers through its ISO base media reader;
/// - photomill's own readers, each written against its format's published description,
///   for what exiv2 0.27 does not read: CR3's CMT boxes (`CameraRaw.cr3Boxes`; exiv2
///   parses each), JPEG XL's codestream size and `brob` (Brotli) boxes (`JXLBoxes`),
///   Sigma's X3F (`X3FProperties`), Kyocera's RAW header (`KyoceraRaw`), the APP12 Picture
///   Info of old cameras and two maker notes (`VendorValues`), the duration of animated GIF
///   and WebP (`Animation`);
/// - the RAW image size as exiftool reports it (the sensor's image, not a preview:
///   `CameraRaw`).
enum MetadataReader {
    /// The file's metadata; throws when it has no metadata container that can be read (the
    /// structure exiv2 needs is damaged or missing), naming the file and the cause.
    static func read(
        fileBytes bytes: UnsafeRawBufferPointer,
        format: MediaFormat,
        path: String
    ) throws(ProcessingError) -> PhotoMetadata {
        var metadata = PhotoMetadata()
        metadata.mediaType = format.mediaType
        switch format {
        case .x3f:
            guard let properties = X3FProperties(bytes) else {
                throw unreadable(path, format, "no X3F directory of properties")
            }
            properties.fill(&metadata)
            if let jpeg = properties.embeddedJPEG,
                let exif = try? Exiv2Metadata(file: UnsafeRawBufferPointer(rebasing: bytes[jpeg]))
            {
                // The camera's EXIF in the embedded JPEG: what the property list lacks
                // (the orientation, GPS, the lens).
                var fromJPEG = PhotoMetadata()
                fill(&fromJPEG, from: exif)
                fromJPEG.pixelWidth = nil
                fromJPEG.pixelHeight = nil
                metadata.fillGaps(from: fromJPEG)
            }
        case .cr3:
            let boxes = CameraRaw.cr3Boxes(bytes)
            func parsed(_ range: Range<Int>?) -> Exiv2Metadata? {
                range.flatMap { try? Exiv2Metadata(exifBlock: UnsafeRawBufferPointer(rebasing: bytes[$0])) }
            }
            guard let ifd0 = parsed(boxes.ifd0) else {
                throw unreadable(path, format, "no readable CMT1 box (IFD0) in Canon's uuid box")
            }
            let exif = CR3Exif(ifd0: ifd0, exif: parsed(boxes.exif), gps: parsed(boxes.gps))
            fill(&metadata, from: exif, vendor: VendorValues())
            if let width = ifd0.number(.zero, 0x0100), let height = ifd0.number(.zero, 0x0101), width > 0, height > 0 {
                (metadata.pixelWidth, metadata.pixelHeight) = (Int(width), Int(height))
            }
        case .kyoceraRaw:
            guard let header = KyoceraRaw(bytes) else {
                throw unreadable(path, format, "the 156-byte header is cut short")
            }
            header.fill(&metadata)
        case .jxl:
            try readJXL(bytes, path: path, into: &metadata)
        default:
            let exiv2: Exiv2Metadata
            do {
                exiv2 = try Exiv2Metadata(file: bytes)
            } catch {
                // exiv2 refuses a whole file for one bad part (an ICC profile, a damaged
                // EXIF block, a GIF it does not know): what the container's own header and
                // EXIF segment still say is kept.
                guard let kept = Self.salvage(bytes, format: format) else {
                    throw unreadable(path, format, "exiv2: \(error.reason)")
                }
                metadata = kept
                break
            }
            var vendor = VendorValues(makerNote: exiv2, make: exiv2.string(.zero, ExifTag.make))
            if format == .jpeg, let info = JPEGSegments(bytes).pictureInfo {
                vendor.merge(VendorValues(pictureInfo: UnsafeRawBufferPointer(rebasing: bytes[info])))
            }
            // HEIF: exiv2 0.27 misses the Exif item of files libheif writes (its offset
            // field counts from another place), and reports another item's size than the
            // primary one's `ispe`, which exiftool reports (an iPhone's edited 2566×3313 HEIC
            // came out 4032×3024): `HEIFLayout` reads both from the `meta` box.
            let layout = [.heic, .heif, .avif].contains(format) ? HEIFLayout(bytes) : nil
            let heifExif =
                exiv2.hasExif
                ? nil : layout?.exif.flatMap { block in block.withUnsafeBytes { try? Exiv2Metadata(exifBlock: $0) } }
            fill(
                &metadata,
                from: heifExif ?? exiv2,
                vendor: heifExif.map { VendorValues(makerNote: $0, make: $0.string(.zero, ExifTag.make)) } ?? vendor
            )
            if let size = exiv2.pixelSize { (metadata.pixelWidth, metadata.pixelHeight) = (size.width, size.height) }
            if let size = layout?.primarySize {
                (metadata.pixelWidth, metadata.pixelHeight) = (size.width, size.height)
            }
            if format.mediaType == .raw, let size = CameraRaw.imageSize(bytes, format: format) {
                (metadata.pixelWidth, metadata.pixelHeight) = (size.width, size.height)
            }
            if let packet = exiv2.xmpPacket, let xmp = try? XMPReader.read(packet) {
                metadata.merge(xmp, replacing: false)
            }
        }
        if let animation = Animation(bytes, format: format) {
            metadata.duration = animation.duration
        }
        return metadata
    }

    /// What is left of a JPEG, HEIF, PNG or GIF that exiv2 will not open: the size from the
    /// JPEG frame header, the HEIF primary item, PNG's IHDR or GIF's logical screen, and a
    /// JPEG's EXIF segment or a HEIF's EXIF item parsed on its own. Nil when there is neither.
    private static func salvage(_ bytes: UnsafeRawBufferPointer, format: MediaFormat) -> PhotoMetadata? {
        var metadata = PhotoMetadata()
        metadata.mediaType = format.mediaType
        var found = false
        func u16(_ at: Int, bigEndian: Bool) -> Int {
            bigEndian ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : Int(bytes[at]) | Int(bytes[at + 1]) << 8
        }
        switch format {
        case .jpeg:
            let segments = JPEGSegments(bytes)
            if let frame = segments.frame {
                (metadata.pixelWidth, metadata.pixelHeight, found) = (frame.width, frame.height, true)
            }
            if let range = segments.exif,
                let exif = try? Exiv2Metadata(exifBlock: UnsafeRawBufferPointer(rebasing: bytes[range]))
            {
                let size = (metadata.pixelWidth, metadata.pixelHeight)
                fill(
                    &metadata,
                    from: exif,
                    vendor: VendorValues(makerNote: exif, make: exif.string(.zero, ExifTag.make))
                )
                (metadata.pixelWidth, metadata.pixelHeight) = size
                found = true
            }
        case .heic, .heif, .avif:
            // One bad item (a tile cut off) and exiv2 refuses the file: the `meta` box's
            // primary size and EXIF item are read all the same.
            guard let layout = HEIFLayout(bytes) else { return nil }
            if let exif = layout.exif.flatMap({ block in block.withUnsafeBytes { try? Exiv2Metadata(exifBlock: $0) } })
            {
                fill(
                    &metadata,
                    from: exif,
                    vendor: VendorValues(makerNote: exif, make: exif.string(.zero, ExifTag.make))
                )
                found = true
            }
            if let size = layout.primarySize {
                (metadata.pixelWidth, metadata.pixelHeight, found) = (size.width, size.height, true)
            }
        case .png where bytes.count >= 24 && bytes[12..<16].elementsEqual("IHDR".utf8):
            let width = u16(16, bigEndian: true) << 16 | u16(18, bigEndian: true)
            let height = u16(20, bigEndian: true) << 16 | u16(22, bigEndian: true)
            if width > 0, height > 0 { (metadata.pixelWidth, metadata.pixelHeight, found) = (width, height, true) }
        case .gif where bytes.count >= 10:
            let width = u16(6, bigEndian: false)
            let height = u16(8, bigEndian: false)
            if width > 0, height > 0 { (metadata.pixelWidth, metadata.pixelHeight, found) = (width, height, true) }
        default:
            break
        }
        return found ? metadata : nil
    }

    private static func unreadable(_ path: String, _ format: MediaFormat, _ cause: String) -> ProcessingError {
        ProcessingError(.corrupt, "\(path): no readable metadata in this \(format.rawValue) file: \(cause)")
    }

    /// JPEG XL: the size from the codestream's header (`JXLBoxes`); EXIF and XMP from the
    /// container's `Exif` and `xml ` boxes, which exiv2 reads, or from their
    /// Brotli-compressed forms (`brob`), which `JXLBoxes` decompresses and exiv2 parses.
    private static func readJXL(
        _ bytes: UnsafeRawBufferPointer,
        path: String,
        into metadata: inout PhotoMetadata
    ) throws(ProcessingError) {
        guard let boxes = JXLBoxes(bytes) else {
            throw unreadable(path, .jxl, "neither a JPEG XL codestream nor its container")
        }
        if let size = boxes.size { (metadata.pixelWidth, metadata.pixelHeight) = (size.width, size.height) }
        // A bare codestream is no container exiv2 knows: nil.
        let container = try? Exiv2Metadata(file: bytes)
        let exif =
            container?.hasExif == true
            ? container
            : boxes.exif.flatMap { block in block.withUnsafeBytes { try? Exiv2Metadata(exifBlock: $0) } }
        if let exif {
            fill(&metadata, from: exif, vendor: VendorValues(makerNote: exif, make: exif.string(.zero, ExifTag.make)))
        }
        let compressedXMP = boxes.xmp.flatMap { packet in packet.withUnsafeBytes { try? Exiv2Metadata(xmpPacket: $0) } }
        if let packet = container?.xmpPacket ?? compressedXMP?.xmpPacket, let xmp = try? XMPReader.read(packet) {
            metadata.merge(xmp, replacing: false)
        }
    }

    /// The EXIF fields, then what maker notes and vendor segments add where EXIF is silent.
    static func fill(
        _ metadata: inout PhotoMetadata,
        from exif: (any ExifValues)?,
        vendor: VendorValues = VendorValues()
    ) {
        func number(_ tag: UInt32) -> Double? { exif?.number(.exif, tag) ?? exif?.number(.zero, tag) }
        metadata.cameraMake = exif?.string(.zero, ExifTag.make)
        metadata.cameraModel = exif?.string(.zero, ExifTag.model)
        metadata.lensModel = exif?.string(.exif, ExifTag.lensModel) ?? vendor.lensModel
        if let value = exif?.number(.zero, ExifTag.orientation), let orientation = Int(exactly: value),
            (1...8).contains(orientation)
        {
            metadata.orientation = orientation
        }
        metadata.dateTaken = exif.flatMap { dateTaken($0, vendorDate: vendor.dateTaken) } ?? vendor.dateTaken
        metadata.contentIdentifier = vendor.contentIdentifier

        // Each value from the EXIF IFD, else the copy some cameras write in IFD0, else the
        // vendor's (a maker note's, through exiv2's easy access), else the APEX value.
        metadata.aperture =
            positive(number(ExifTag.fNumber)) ?? vendor.fNumber
            ?? positive(number(ExifTag.apertureValue).map { pow(2, $0 / 2) })
        metadata.shutterSpeed =
            positive(number(ExifTag.exposureTime)) ?? vendor.exposureTime
            ?? positive(number(ExifTag.shutterSpeedValue).map { pow(2, -$0) })
        if let iso = positive(number(ExifTag.isoSpeedRatings)), iso >= 1, iso < 1e9 {
            metadata.iso = Int(iso)
        } else {
            metadata.iso = vendor.iso
        }
        metadata.focalLength = positive(number(ExifTag.focalLength)) ?? vendor.focalLength

        guard let exif else { return }
        metadata.gpsLatitude = coordinate(
            exif,
            ExifTag.gpsLatitude,
            ref: ExifTag.gpsLatitudeRef,
            negative: "S",
            limit: 90
        )
        metadata.gpsLongitude = coordinate(
            exif,
            ExifTag.gpsLongitude,
            ref: ExifTag.gpsLongitudeRef,
            negative: "W",
            limit: 180
        )
        if metadata.gpsLatitude == nil || metadata.gpsLongitude == nil {
            metadata.gpsLatitude = nil
            metadata.gpsLongitude = nil
        }
    }

    static func positive(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value > 0 else { return nil }
        return value
    }

    /// DateTimeOriginal (EXIF IFD, else its IFD0 copy), then the vendor's (a maker note's
    /// or Picture Info's, which exiftool ranks below EXIF's), then DateTimeDigitized, then
    /// DateTime; each with its own offset tag.
    private static func dateTaken(_ exif: any ExifValues, vendorDate: String?) -> String? {
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
                let offset = (exif.string(.exif, offsetTag) ?? exif.string(.zero, offsetTag)).flatMap(
                    ExifDate.offset(fromExif:)
                )
                return local + (offset ?? "")
            }
            return nil
        }
        return date(original) ?? vendorDate ?? date(others)
    }

    /// Degrees, minutes, seconds with a hemisphere reference, as signed decimal degrees.
    private static func coordinate(
        _ exif: any ExifValues,
        _ tag: UInt32,
        ref: UInt32,
        negative: String,
        limit: Double
    ) -> Double? {
        guard let parts = exif.numbers(.gps, tag), parts.count >= 1, parts.allSatisfy({ $0 >= 0 }) else { return nil }
        let minutes = parts.count > 1 ? parts[1] : 0
        let seconds = parts.count > 2 ? parts[2] : 0
        let degrees = parts[0] + minutes / 60 + seconds / 3600
        guard degrees <= limit else { return nil }
        let reference = exif.string(.gps, ref)?.uppercased()
        return reference == negative ? -degrees : degrees
    }
}

/// A CR3's three TIFF structures as one set of EXIF values: CMT1 is IFD0, CMT2 the EXIF
/// IFD and CMT4 the GPS IFD, each parsed by exiv2 as the first directory of its own block.
struct CR3Exif: ExifValues {
    let ifd0: Exiv2Metadata
    let exif: Exiv2Metadata?
    let gps: Exiv2Metadata?

    private func block(_ ifd: ExifIFD) -> Exiv2Metadata? {
        switch ifd {
        case .zero: ifd0
        case .exif: exif
        case .gps: gps
        }
    }

    func string(_ ifd: ExifIFD, _ tag: UInt32) -> String? { block(ifd)?.string(.zero, tag) }
    func numbers(_ ifd: ExifIFD, _ tag: UInt32) -> [Double]? { block(ifd)?.numbers(.zero, tag) }
}

extension PhotoMetadata {
    /// Each field still missing taken from `other`.
    mutating func fillGaps(from other: PhotoMetadata) {
        func take<Value>(_ field: WritableKeyPath<PhotoMetadata, Value?>) {
            if self[keyPath: field] == nil { self[keyPath: field] = other[keyPath: field] }
        }
        take(\.dateTaken)
        take(\.pixelWidth)
        take(\.pixelHeight)
        take(\.cameraMake)
        take(\.cameraModel)
        take(\.orientation)
        take(\.aperture)
        take(\.shutterSpeed)
        take(\.iso)
        take(\.focalLength)
        take(\.lensModel)
        if gpsLatitude == nil || gpsLongitude == nil {
            (gpsLatitude, gpsLongitude) = (other.gpsLatitude, other.gpsLongitude)
        }
    }
}

/// EXIF date strings ("YYYY:MM:DD HH:MM:SS") to ISO 8601.
enum ExifDate {
    static func iso8601(fromExif raw: String) -> String? {
        // Accept ':' or '-' as date separators, 'T' or ' ' between date and time.
        let digits = raw.unicodeScalars.filter { CharacterSet.decimalDigits.contains($0) }.map { Int($0.value - 48) }
        guard digits.count >= 14 else { return nil }
        func number(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + digits[$1] } }
        let year = number(0..<4)
        let month = number(4..<6)
        let day = number(6..<8)
        let hour = number(8..<10)
        let minute = number(10..<12)
        let second = number(12..<14)
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
            (0...14).contains(hours), (0...59).contains(minutes)
        else { return nil }
        return text
    }
}
