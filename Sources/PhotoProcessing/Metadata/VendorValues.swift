import Foundation
import PhotomillCore

/// Values that exiftool finds outside the EXIF directories — in maker notes and in
/// vendor segments (`PictureInfo`) — and ranks below EXIF's: `MetadataReader` uses each
/// only when the EXIF directories lack it.
struct VendorValues: Equatable {
    var iso: Int?
    var dateTaken: String?
    var exposureTime: Double?
    var fNumber: Double?
    /// Apple's tag 0x0011 (exiftool 12.57 calls it MediaGroupUUID, earlier versions
    /// ContentIdentifier): shared by a Live Photo's still and video.
    var contentIdentifier: String?

    init() {}
}

/// The few maker-note values exiftool reports as ISO, DateTimeOriginal and
/// ContentIdentifier, read as its tables say (lib/Image/ExifTool/Canon.pm, Nikon.pm,
/// Panasonic.pm, Reconyx.pm, Apple.pm; MakerNotes.pm for how each maker note is
/// recognised and where its offsets count from).
extension VendorValues {
    init(makerNoteOf directories: ExifDirectories) {
        self.init()
        guard let exif = directories.exif, let entry = exif.entries.first(0x927C),
              let range = exif.tiff.valueRange(of: entry), range.count >= 8 else { return }
        let note = UnsafeRawBufferPointer(rebasing: exif.tiff.bytes[range])
        let make = directories.make?.uppercased() ?? ""
        if note.starts(with: Array("Apple iOS\0".utf8)) {
            contentIdentifier = Self.apple(note)
        } else if make.hasPrefix("CANON") {
            iso = Self.canonISO(exif.tiff, at: range.lowerBound)
        } else if note.starts(with: Array("Nikon\0\u{2}".utf8)) {
            iso = Self.nikonISO(note)
        } else if note.starts(with: Array("Panasonic\0".utf8)) {
            iso = Self.panasonicISO(exif.tiff, at: range.lowerBound + 12)
        } else if note.starts(with: [0x01, 0xF1]) && (make == "RECONYX" || [2, 3].contains(note[2]) && note[3] == 0) {
            dateTaken = Self.reconyxDate(note)
        }
    }

    /// Canon: a directory at the maker note's start whose offsets count from the TIFF
    /// header. CameraSettings (0x0001) index 16 is CameraISO, when numeric; else exiftool's
    /// Composite ISO = BaseISO × AutoISO / 100 from ShotInfo (0x0004) indices 2 and 1,
    /// each 2^(v/32) scaled (BaseISO by 100/32, AutoISO by 100).
    private static func canonISO(_ tiff: TIFFStructure, at offset: Int) -> Int? {
        guard let directory = tiff.directory(at: offset) else { return nil }
        func signed(_ tag: UInt16, _ index: Int) -> Int? {
            guard let entry = directory.first(tag), entry.type == 3 || entry.type == 8,
                  let values = tiff.integers(entry), index < values.count else { return nil }
            return Int(Int16(truncatingIfNeeded: values[index]))
        }
        if let camera = signed(0x0001, 16), camera != 0x7FFF {
            let lookup = [16: 50, 17: 100, 18: 200, 19: 400, 20: 800]
            if camera & 0x4000 != 0, camera & 0x3FFF > 0 { return camera & 0x3FFF }
            if let iso = lookup[camera] { return iso }
        }
        guard let baseRaw = signed(0x0004, 2), baseRaw != 0, let autoRaw = signed(0x0004, 1) else { return nil }
        let base = exp(Double(baseRaw) / 32 * log(2)) * 100 / 32
        let auto = exp(Double(autoRaw) / 32 * log(2)) * 100
        let iso = (base * auto / 100).rounded()
        return iso >= 1 && iso < 1e7 ? Int(iso) : nil
    }

    /// Nikon type 2/3: "Nikon\0", a version, two bytes, then a TIFF structure of its own.
    /// Tag 0x0002 ISO is two shorts: 0 (or 1 for "Hi" modes) and the ISO.
    private static func nikonISO(_ note: UnsafeRawBufferPointer) -> Int? {
        guard note.count > 18, let tiff = TIFFStructure(header: UnsafeRawBufferPointer(rebasing: note[10...])),
              let directory = tiff.directory(at: tiff.firstDirectoryOffset),
              let entry = directory.first(0x0002), let values = tiff.integers(entry), values.count >= 2,
              values[1] > 0 else { return nil }
        return values[1]
    }

    /// Panasonic: "Panasonic\0\0\0", then a directory whose offsets count from the TIFF
    /// header. Tag 0x00D1 ISO (a long; values above 0xFFFFFFF0 mean none).
    private static func panasonicISO(_ tiff: TIFFStructure, at offset: Int) -> Int? {
        guard let directory = tiff.directory(at: offset), let entry = directory.first(0x00D1),
              let value = tiff.integers(entry)?.first, value > 0, value <= 0xFFFF_FFF0 else { return nil }
        return value
    }

    /// Reconyx Hyperfire: little-endian shorts; index 0x0B… holds seconds, minutes, hours,
    /// month, day, year (some cameras write them big-endian; exiftool swaps those back).
    private static func reconyxDate(_ note: UnsafeRawBufferPointer) -> String? {
        guard note.count >= 0x0B * 2 + 12 else { return nil }
        var parts: [Int] = (0..<6).map { (index: Int) -> Int in
            let low = Int(note[0x16 + 2 * index]), high = Int(note[0x17 + 2 * index])
            return low | high << 8
        }
        if parts[0] & 0xFF00 != 0 && parts[0] & 0xFF == 0 {
            parts = parts.map { (value: Int) -> Int in value >> 8 | (value & 0xFF) << 8 }
        }
        let text = String(format: "%04d:%02d:%02d %02d:%02d:%02d", parts[5], parts[3], parts[4], parts[2], parts[1], parts[0])
        return ExifDate.iso8601(fromExif: text)
    }

    /// Apple iOS: "Apple iOS\0", a version, "MM", then a directory at byte 14 whose
    /// offsets count from the maker note's start.
    private static func apple(_ note: UnsafeRawBufferPointer) -> String? {
        guard note.count > 16, note[12] == 0x4D || note[12] == 0x49 else { return nil }
        let tiff = TIFFStructure(bytes: note, bigEndian: note[12] == 0x4D)
        guard let directory = tiff.directory(at: 14), let entry = directory.first(0x0011), entry.type == 2 else { return nil }
        return tiff.string(entry)
    }
}
