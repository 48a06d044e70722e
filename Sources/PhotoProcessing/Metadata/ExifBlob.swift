import PhotomillCore

/// The EXIF block handed to libexif: a small new TIFF structure behind an "Exif\0\0"
/// header, holding IFD0, the EXIF IFD and the GPS IFD with their entries copied byte for
/// byte (libexif still parses every value). Rebuilding instead of passing the file's own
/// block is what lets libexif read:
///
/// - directories that contain an out-of-range pointer entry: libexif 0.6.24 stops
///   reading a sub-directory at an InteropIFD (0xA005), thumbnail (0x0201/0x0202), EXIF or
///   GPS pointer that points past the end, losing every entry after it. Pointers are not
///   copied; the two directories photomill reads are re-linked at their new places.
/// - TIFF-based RAW: libexif reads only the first 64 KiB of a block and only the TIFF magic
///   42, while a RAW's EXIF IFD may lie further in (and RW2/ORF have magics of their own).
/// - CR3, whose three directories come from three boxes.
///
/// Dropped on the way: the MakerNote (photomill reads the few maker-note values it needs
/// itself; libexif's maker-note parsers are then never fed hostile bytes), values over
/// 4 KiB (XMP, ICC profiles, strip tables: no field comes from them), entries whose value
/// lies outside the file, and a directory whose byte order differs from IFD0's.
enum ExifBlob {
    static func make(_ directories: ExifDirectories) -> [UInt8]? {
        guard let order = (directories.ifd0 ?? directories.exif ?? directories.gps)?.tiff.bigEndian else { return nil }
        func same(_ directory: ExifDirectories.Directory?) -> ExifDirectories.Directory? {
            directory?.tiff.bigEndian == order ? directory : nil
        }
        let exif = same(directories.exif), gps = same(directories.gps)
        var writer = Writer(bigEndian: order)
        var pointers: [UInt16] = []
        if exif != nil { pointers.append(0x8769) }
        if gps != nil { pointers.append(0x8825) }
        let patches = writer.append(same(directories.ifd0), pointers: pointers)
        if let exif, let at = patches[0x8769] { writer.patch(at, to: writer.append(exif)) }
        if let gps, let at = patches[0x8825] { writer.patch(at, to: writer.append(gps)) }
        return writer.bytes
    }

    /// Tags not copied: sub-directory and thumbnail pointers (re-linked or useless here),
    /// SubIFDs, and the MakerNote.
    private static let skipped: Set<UInt16> = [0x8769, 0x8825, 0xA005, 0x0201, 0x0202, 0x014A, 0x927C]
    private static let largestValue = 4096

    private struct Writer {
        private(set) var bytes: [UInt8]
        let bigEndian: Bool

        init(bigEndian: Bool) {
            self.bigEndian = bigEndian
            bytes = Array("Exif\0\0".utf8) + (bigEndian ? [0x4D, 0x4D, 0, 0x2A] : [0x49, 0x49, 0x2A, 0])
            bytes += u32(8)
        }

        /// Where the TIFF structure's offsets count from.
        private var origin: Int { 6 }

        /// Appends a directory (an empty one when `directory` is nil) with one LONG entry
        /// per pointer tag, and returns where each pointer's value is, to patch.
        mutating func append(_ directory: ExifDirectories.Directory?, pointers: [UInt16] = []) -> [UInt16: Int] {
            let tiff = directory?.tiff
            var kept: [(entry: TIFFEntry, value: Range<Int>)] = []
            for entry in directory?.entries.entries ?? [] where !skipped.contains(entry.tag) {
                guard let tiff, let range = tiff.valueRange(of: entry), range.count <= largestValue,
                      !kept.contains(where: { $0.entry.tag == entry.tag }) else { continue }
                kept.append((entry, range))
            }
            let start = bytes.count
            // Keep the block within libexif's 64 KiB: drop what would not fit.
            var dataSize = kept.reduce(0) { $0 + padded($1.value.count) }
            while !kept.isEmpty, start + 2 + 12 * (kept.count + pointers.count) + 4 + dataSize > 0xFF00 {
                dataSize -= padded(kept.removeLast().value.count)
            }
            typealias Row = (tag: UInt16, source: (entry: TIFFEntry, value: Range<Int>)?)
            let rows: [Row] = (kept.map { ($0.entry.tag, $0) } + pointers.map { ($0, nil) }).sorted { $0.tag < $1.tag }
            let data = start + 2 + 12 * rows.count + 4
            bytes += u16(rows.count)
            var values: [UInt8] = []
            var patches: [UInt16: Int] = [:]
            for (tag, row) in rows {
                bytes += u16(Int(tag))
                guard let row, let tiff else {
                    bytes += u16(4) + u32(1)
                    patches[tag] = bytes.count
                    bytes += u32(0)
                    continue
                }
                bytes += u16(Int(row.entry.type)) + u32(row.entry.count)
                let value = tiff.bytes[row.value]
                if value.count <= 4 {
                    bytes += value + [UInt8](repeating: 0, count: 4 - value.count)
                } else {
                    bytes += u32(data + values.count - origin)
                    values += value
                    if values.count % 2 == 1 { values.append(0) }
                }
            }
            bytes += u32(0) + values
            return patches
        }

        /// Appends a directory and returns its offset, for the parent's pointer.
        mutating func append(_ directory: ExifDirectories.Directory) -> Int {
            let offset = bytes.count - origin
            _ = append(directory, pointers: [])
            return offset
        }

        mutating func patch(_ position: Int, to value: Int) {
            bytes.replaceSubrange(position..<(position + 4), with: u32(value))
        }

        private func padded(_ size: Int) -> Int { size <= 4 ? 0 : size + size % 2 }

        private func u16(_ value: Int) -> [UInt8] {
            let v = UInt16(truncatingIfNeeded: value)
            return bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
        }

        private func u32(_ value: Int) -> [UInt8] {
            let v = UInt32(truncatingIfNeeded: value)
            let big = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            return bigEndian ? big : big.reversed()
        }
    }
}
