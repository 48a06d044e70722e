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

/// A bounds-checked reader of TIFF structures: plain TIFF, the EXIF block of a JPEG, maker
/// notes, and camera RAW files that are TIFF with another magic number (Panasonic's
/// "IIU\0", Olympus' "IIRO"/"MMOR"). Every offset is checked against the bytes before it is
/// read; a damaged structure yields fewer entries, never a crash.
///
/// It reads `bytes` in place: a value of this type is valid only while those bytes are
/// (the closure of a `withUnsafeBytes`).
public struct TIFFStructure {
    /// Everything offsets are counted from: the TIFF header for files, the maker note's
    /// base for maker notes that count from elsewhere.
    public let bytes: UnsafeRawBufferPointer
    public let bigEndian: Bool

    /// The structure whose header ("II"/"MM", a magic, the first directory's offset)
    /// starts `bytes`. Nil when the header is not one.
    public init?(header bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        self.bytes = bytes
        let magic = Self.read16(bytes, at: 2, bigEndian: bigEndian)
        // 42 (TIFF), 0x55 (Panasonic RW2), "RO"/"OR"/"RS" (Olympus ORF).
        guard [0x2A, 0x55, 0x4F52, 0x5352].contains(magic) else { return nil }
    }

    /// A structure without a header of its own (a maker note's directory), whose offsets
    /// count from the start of `bytes`.
    public init(bytes: UnsafeRawBufferPointer, bigEndian: Bool) {
        self.bytes = bytes
        self.bigEndian = bigEndian
    }

    /// The offset of the first directory (IFD0), as the header says.
    public var firstDirectoryOffset: Int { Int(uint32(at: 4) ?? 0) }

    /// The directory at `offset`: its entries (as many as lie inside the bytes, at most
    /// 1000) and the offset of the next directory (0 for none). Nil when not even the
    /// entry count is inside.
    public func directory(at offset: Int) -> TIFFDirectoryEntries? {
        guard offset >= 0, let count = uint16(at: offset), count > 0 else { return nil }
        let available = (bytes.count - offset - 2) / 12
        let entryCount = min(Int(count), available, 1000)
        guard entryCount > 0 else { return nil }
        var entries: [TIFFEntry] = []
        entries.reserveCapacity(entryCount)
        for index in 0..<entryCount {
            let at = offset + 2 + 12 * index
            entries.append(
                TIFFEntry(
                    tag: uint16(at: at) ?? 0,
                    type: uint16(at: at + 2) ?? 0,
                    count: Int(uint32(at: at + 4) ?? 0),
                    entryOffset: at
                )
            )
        }
        let next = entryCount == Int(count) ? Int(uint32(at: offset + 2 + 12 * entryCount) ?? 0) : 0
        return TIFFDirectoryEntries(entries: entries, nextOffset: next)
    }

    /// Where an entry's value lies: inline in the entry when it fits in 4 bytes, else at the
    /// offset the entry holds. Nil when the value would lie outside the bytes.
    public func valueRange(of entry: TIFFEntry) -> Range<Int>? {
        guard let size = entry.valueSize else { return nil }
        let start = size <= 4 ? entry.entryOffset + 8 : Int(uint32(at: entry.entryOffset + 8) ?? UInt32.max)
        guard start >= 0, start <= bytes.count, size <= bytes.count - start else { return nil }
        return start..<(start + size)
    }

    /// The 4-byte value field of an entry as a number: an offset for pointer tags.
    public func offsetField(of entry: TIFFEntry) -> Int { Int(uint32(at: entry.entryOffset + 8) ?? 0) }

    /// The entry's integer values (BYTE, SHORT, LONG and their signed forms).
    public func integers(_ entry: TIFFEntry) -> [Int]? {
        guard let range = valueRange(of: entry) else { return nil }
        let step: Int
        switch entry.type {
        case 1, 6, 7: step = 1
        case 3, 8: step = 2
        case 4, 9, 13: step = 4
        default: return nil
        }
        return stride(from: range.lowerBound, to: range.upperBound, by: step).map { at in
            switch entry.type {
            case 1, 7: Int(bytes[at])
            case 6: Int(Int8(bitPattern: bytes[at]))
            case 3: Int(uint16(at: at)!)
            case 8: Int(Int16(bitPattern: uint16(at: at)!))
            case 9: Int(Int32(bitPattern: uint32(at: at)!))
            default: Int(uint32(at: at)!)
            }
        }
    }

    /// The entry's bytes, as stored.
    public func data(_ entry: TIFFEntry) -> UnsafeRawBufferPointer? {
        valueRange(of: entry).map { UnsafeRawBufferPointer(rebasing: bytes[$0]) }
    }

    /// An ASCII value up to its first NUL, trimmed of spaces; nil when empty.
    public func string(_ entry: TIFFEntry) -> String? {
        guard let data = data(entry) else { return nil }
        let text = String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
        let trimmed = text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    public func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        return Self.read16(bytes, at: offset, bigEndian: bigEndian)
    }

    public func uint32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        let a = UInt32(bytes[offset])
        let b = UInt32(bytes[offset + 1])
        let c = UInt32(bytes[offset + 2])
        let d = UInt32(bytes[offset + 3])
        return bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
    }

    private static func read16(_ bytes: UnsafeRawBufferPointer, at offset: Int, bigEndian: Bool) -> UInt16 {
        let a = UInt16(bytes[offset])
        let b = UInt16(bytes[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }
}

/// One directory's entries and where the next directory is (0: none).
public struct TIFFDirectoryEntries {
    public let entries: [TIFFEntry]
    public let nextOffset: Int

    public func first(_ tag: UInt16) -> TIFFEntry? { entries.first { $0.tag == tag } }
}

/// One 12-byte directory entry.
public struct TIFFEntry: Sendable, Hashable {
    public let tag: UInt16
    /// TIFF field type: 1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL, 6 SBYTE, 7 UNDEFINED,
    /// 8 SSHORT, 9 SLONG, 10 SRATIONAL, 11 FLOAT, 12 DOUBLE, 13 IFD.
    public let type: UInt16
    public let count: Int
    /// Where the entry itself starts in the structure's bytes.
    public let entryOffset: Int

    /// Bytes the value takes; nil for an unknown type or an absurd count.
    public var valueSize: Int? {
        let size: Int
        switch type {
        case 1, 2, 6, 7: size = 1
        case 3, 8: size = 2
        case 4, 9, 11, 13: size = 4
        case 5, 10, 12: size = 8
        default: return nil
        }
        return size * count
    }
}
