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

/// What a file is, as photomill tells it from its content (the first bytes, and for TIFF
/// structures the first directory), never from its name: `Kind`s are computed only for
/// files that are one of these. The one place photomill recognises formats; the scanner,
/// the processors and `inspect` all ask it.
public enum MediaFormat: String, Sendable, Hashable, Codable, CaseIterable {
    // Stills that libvips decodes.
    case jpeg, png, gif, tiff, webp, bmp, heic, heif, avif, jxl
    // Camera RAW: metadata from their own structures (exiv2, LibRaw), pictures from LibRaw.
    case cr2, cr3, crw, nef, nrw, arw, sr2, dng, raf, orf, rw2, pef, srw
    case mrw, x3f, iiq
    case threeFR = "3fr"
    /// Kyocera's and Contax's N Digital RAW (exiftool's FileType `RAW`).
    case kyoceraRaw = "raw"
    // Video, read with FFmpeg's libraries.
    case mov, mp4, m4v
    case threeGP = "3gp"
    case avi, mkv, webm, mts

    public var mediaType: MediaType {
        switch self {
        case .jpeg, .png, .gif, .tiff, .webp, .bmp, .heic, .heif, .avif, .jxl: .photo
        case .cr2, .cr3, .crw, .nef, .nrw, .arw, .sr2, .dng, .raf, .orf, .rw2, .pef, .srw,
            .mrw, .x3f, .iiq, .threeFR, .kyoceraRaw:
            .raw
        case .mov, .mp4, .m4v, .threeGP, .avi, .mkv, .webm, .mts: .video
        }
    }

    /// How many leading bytes `init?(sniffing:fileExtension:)` wants: enough for a TIFF's
    /// first directory and the Make it points to in any camera file seen.
    public static let headLength = 64 * 1024

    /// The format of a file whose first bytes are `head` (up to `headLength`; fewer for a
    /// short file). `fileExtension` only tells apart what the content leaves open: TIFF
    /// structures that are camera RAW of a maker that uses two extensions (NEF/NRW,
    /// ARW/SR2). Nil: not a photo, RAW or video photomill takes.
    public init?(sniffing head: [UInt8], fileExtension: String? = nil) {
        let b = ByteView(head)
        let ext = fileExtension?.lowercased()
        if b.starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
            return
        }
        if b.starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
            return
        }
        if b.starts("GIF87a") || b.starts("GIF89a") {
            self = .gif
            return
        }
        if b.starts("RIFF") && b.matches("WEBP", at: 8) {
            self = .webp
            return
        }
        if b.starts("RIFF") && b.matches("AVI ", at: 8) {
            self = .avi
            return
        }
        if b.starts([0xFF, 0x0A]) || b.starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
            self = .jxl
            return
        }
        if b.starts("FUJIFILMCCD-RAW") {
            self = .raf
            return
        }
        if b.starts([0x00, 0x4D, 0x52, 0x4D]) || b.starts([0x00, 0x4D, 0x52, 0x49]) {
            self = .mrw
            return
        }  // "\0MRM"
        if b.starts("FOVb") {
            self = .x3f
            return
        }
        if b.matches("ARECOYK", at: 25) {
            self = .kyoceraRaw
            return
        }  // "KYOCERA" reversed
        if b.matches("HEAPCCDR", at: 6) && (b.starts("II") || b.starts("MM")) {
            self = .crw
            return
        }
        if b.starts([0x49, 0x49, 0x55, 0x00]) {
            self = .rw2
            return
        }  // "IIU\0"
        if b.starts("IIRO") || b.starts("IIRS") || b.starts("MMOR") {
            self = .orf
            return
        }
        if b.starts([0x1A, 0x45, 0xDF, 0xA3]) {
            // EBML: Matroska unless its DocType says webm.
            self = b.contains("webm", within: 64) ? .webm : .mkv
            return
        }
        if Self.isTransportStream(b) {
            self = .mts
            return
        }
        if let bmp = Self.bitmap(b) {
            self = bmp
            return
        }
        if let isoBase = Self.isoBaseMedia(b) {
            self = isoBase
            return
        }
        if b.starts([0x49, 0x49, 0x2A, 0x00]) || b.starts([0x4D, 0x4D, 0x00, 0x2A]) {
            self = Self.tiffFamily(b, fileExtension: ext)
            return
        }
        return nil
    }

    /// A BMP only when its header holds together: "BM", reserved zeros, a DIB header of a
    /// size some version of the format has, and pixel data inside the file. A text file
    /// that starts with "BM" is no bitmap.
    private static func bitmap(_ b: ByteView) -> MediaFormat? {
        guard b.starts("BM"), b.count >= 26 else { return nil }
        let fileSize = b.uint32LE(at: 2)
        let reserved = b.uint32LE(at: 6)
        let offset = b.uint32LE(at: 10)
        let dibSize = b.uint32LE(at: 14)
        guard reserved == 0, [12, 40, 52, 56, 64, 108, 124].contains(dibSize), offset >= 14 + dibSize,
            fileSize == 0 || offset < fileSize
        else { return nil }
        return .bmp
    }

    /// ISO base media (MP4, QuickTime, HEIF, AVIF, CR3) by its `ftyp` brands; a
    /// QuickTime file may start with another atom instead.
    private static func isoBaseMedia(_ b: ByteView) -> MediaFormat? {
        if b.matches("ftyp", at: 4) {
            let size = Int(b.uint32BE(at: 0))
            var brands = [b.string(at: 8, length: 4)]
            var offset = 16
            while offset + 4 <= min(size, b.count, 256) {
                brands.append(b.string(at: offset, length: 4))
                offset += 4
            }
            return brand(brands)
        }
        for atom in ["moov", "mdat", "wide", "free", "skip", "pnot"] where b.matches(atom, at: 4) {
            return .mov
        }
        return nil
    }

    /// The major brand decides, as exiftool's `ftyp` table has it (`mif1`, `msf1` and
    /// Canon's `heix` are HEIF, `heic` HEIC); compatible brands only when the major one is
    /// none photomill knows.
    private static func brand(_ brands: [String]) -> MediaFormat? {
        if let major = brands.first, let format = format(ofBrand: major) { return format }
        return brands.dropFirst().lazy.compactMap(format(ofBrand:)).first
    }

    private static func format(ofBrand brand: String) -> MediaFormat? {
        switch brand {
        case "crx ": .cr3
        case "heic", "heim", "heis", "hevc", "hevm", "hevs": .heic
        case "heix", "hevx", "mif1", "msf1": .heif
        case "avif", "avis": .avif
        case "qt  ": .mov
        case "M4V ", "M4VH", "M4VP": .m4v
        case "3gp4", "3gp5", "3gp6", "3gp7", "3gs7", "3ge6", "3ge7", "3gg6", "3g2a", "3g2b", "3g2c": .threeGP
        case "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "dash", "MSNV", "f4v ", "mmp4",
            "NDAS", "XAVC":
            .mp4
        default: nil
        }
    }

    /// MPEG transport streams as camcorders write them (AVCHD `.mts`, 192-byte packets
    /// with a 4-byte time code) or plain (188-byte packets): three sync bytes in step.
    private static func isTransportStream(_ b: ByteView) -> Bool {
        for (first, step) in [(4, 192), (0, 188)] {
            guard b.count > first + 2 * step else { continue }
            if b[first] == 0x47 && b[first + step] == 0x47 && b[first + 2 * step] == 0x47 { return true }
        }
        return false
    }

    /// A TIFF structure: camera RAW when its first directory says so (DNGVersion, a CR2
    /// marker; a camera maker's Make together with sub-directories for the raw data, or
    /// with that maker's RAW extension), else a TIFF image: a scanner's TIFF that names
    /// Nikon stays a TIFF.
    private static func tiffFamily(_ b: ByteView, fileExtension ext: String?) -> MediaFormat {
        if b.matches("CR", at: 8) && b.count > 10 && b[10] == 2 { return .cr2 }
        // Phase One's own block ("IIII"/"MMMM") right after the TIFF header, where IIQ
        // files keep it (LibRaw and dcraw look for it in the first 32 bytes).
        if b.matches("IIII", at: 8) || b.matches("MMMM", at: 8) { return .iiq }
        let firstDirectory: (tags: Set<UInt16>, make: String?)? = b.bytes.withUnsafeBytes { raw in
            guard let tiff = TIFFStructure(header: raw),
                let ifd0 = tiff.directory(at: tiff.firstDirectoryOffset)
            else { return nil }
            return (Set(ifd0.entries.map(\.tag)), ifd0.first(0x010F).flatMap(tiff.string))
        }
        guard let firstDirectory else { return .tiff }
        if firstDirectory.tags.contains(0xC612) { return .dng }
        let byExtension = ext.flatMap { MediaFormat(rawValue: $0) }.flatMap {
            $0.mediaType == .raw && $0.isTIFFBased ? $0 : nil
        }
        guard firstDirectory.tags.contains(0x014A) || byExtension != nil else { return .tiff }
        let make = firstDirectory.make?.uppercased() ?? ""
        if make.hasPrefix("NIKON") { return ext == "nrw" ? .nrw : .nef }
        if make.hasPrefix("SONY") { return ext == "sr2" ? .sr2 : .arw }
        if make.hasPrefix("PENTAX") || make.hasPrefix("RICOH") { return .pef }
        if make.hasPrefix("SAMSUNG") { return .srw }
        if make.hasPrefix("CANON") { return .cr2 }
        if make.hasPrefix("OLYMPUS") || make.hasPrefix("OM DIGITAL") { return .orf }
        if make.hasPrefix("PHASE ONE") || make.hasPrefix("LEAF") { return .iiq }
        if make.hasPrefix("HASSELBLAD") { return .threeFR }
        return byExtension ?? .tiff
    }

    /// RAW formats that are TIFF structures (recognised by their first directory), as
    /// opposed to those with signatures of their own.
    public var isTIFFBased: Bool {
        switch self {
        case .cr2, .nef, .nrw, .arw, .sr2, .dng, .orf, .rw2, .pef, .srw, .iiq, .threeFR: true
        default: false
        }
    }
}

/// What photomill does with a file: the three kinds of media it processes.
public enum MediaType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A still image libvips decodes (JPEG, PNG, HEIC, …).
    case photo
    /// Camera RAW.
    case raw
    /// A video: hashed, described and given a poster frame, never OCRed.
    case video

    /// The kinds a file of this type has tasks for: videos get none of those not
    /// `KindDescriptor.forVideos` (OCR).
    public func kinds(of wanted: Set<Kind>) -> Set<Kind> {
        self == .video ? wanted.filter(\.descriptor.forVideos) : wanted
    }
}

/// Bounds-checked reads of a file's first bytes.
struct ByteView {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var count: Int { bytes.count }
    subscript(index: Int) -> UInt8 { index < bytes.count ? bytes[index] : 0 }

    func starts(_ prefix: [UInt8]) -> Bool { matches(prefix, at: 0) }
    func starts(_ text: String) -> Bool { matches(Array(text.utf8), at: 0) }
    func matches(_ text: String, at offset: Int) -> Bool { matches(Array(text.utf8), at: offset) }

    func matches(_ prefix: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, bytes.count >= offset + prefix.count else { return false }
        return bytes[offset..<offset + prefix.count].elementsEqual(prefix)
    }

    func contains(_ text: String, within limit: Int) -> Bool {
        let needle = Array(text.utf8)
        let end = min(bytes.count, limit)
        guard end >= needle.count else { return false }
        return (0...(end - needle.count)).contains { matches(needle, at: $0) }
    }

    func string(at offset: Int, length: Int) -> String {
        guard offset >= 0, offset + length <= bytes.count else { return "" }
        return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
    }

    func uint32(at offset: Int, bigEndian: Bool) -> UInt32 {
        let a = UInt32(self[offset])
        let b = UInt32(self[offset + 1])
        let c = UInt32(self[offset + 2])
        let d = UInt32(self[offset + 3])
        return bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
    }

    func uint32LE(at offset: Int) -> UInt32 { uint32(at: offset, bigEndian: false) }
    func uint32BE(at offset: Int) -> UInt32 { uint32(at: offset, bigEndian: true) }
}
