/// What a HEIF/HEIC/AVIF file says about its primary image in its `meta` box: the stored
/// size (`ispe`), the transforms a reader must apply to display it (`irot`, `imir`, in the
/// order the file lists them), and its EXIF item. Read with bounds checks only; no codec.
///
/// libheif applies `irot`/`imir` when decoding but ignores the EXIF orientation, whereas
/// exiftool reports the `ispe` size (before `irot`) as ImageWidth/ImageHeight.
public struct HEIFLayout: Sendable, Equatable {
    /// Width and height as stored (`ispe`), before any rotation.
    public var primarySize: PixelSize?
    /// `irot`: degrees counter-clockwise (0, 90, 180, 270) to display the image.
    public var rotation: Int = 0
    /// `imir`: how the image is mirrored to display it, if it is.
    public var mirror: Mirror?
    /// Whether `imir` comes before `irot` in the item's properties (the order they apply).
    public var mirrorsBeforeRotating = false
    /// The EXIF item's TIFF structure (from its "II"/"MM" header), if the file has one.
    public var exif: [UInt8]?

    /// `imir`'s axis as libheif applies it (and so libvips, which decodes with it):
    /// the 2017 standard's "vertical axis" for 0 has been read both ways, libheif's
    /// reading is the one photomill's pixels follow. Checked against `heif-convert` in
    /// MetadataHEIFTests.
    public enum Mirror: Sendable, Equatable {
        /// `imir` axis 0: top and bottom swap.
        case topBottom
        /// `imir` axis 1: left and right swap.
        case leftRight
    }

    public struct PixelSize: Sendable, Equatable {
        public let width: Int
        public let height: Int
    }

    /// The EXIF orientation (1…8) that `irot` and `imir` together amount to: 1 when the
    /// file has neither.
    public var transformOrientation: Int {
        // Each step as a 2×2 matrix on (x right, y down) coordinates; composed in order.
        typealias Matrix = (Int, Int, Int, Int)
        func times(_ a: Matrix, _ b: Matrix) -> Matrix {
            (a.0 * b.0 + a.1 * b.2, a.0 * b.1 + a.1 * b.3, a.2 * b.0 + a.3 * b.2, a.2 * b.1 + a.3 * b.3)
        }
        let counterClockwise: Matrix = (0, 1, -1, 0)
        var turn: Matrix = (1, 0, 0, 1)
        for _ in 0..<(rotation / 90 % 4) { turn = times(counterClockwise, turn) }
        let flip: Matrix = switch mirror {
        case .topBottom: (1, 0, 0, -1)
        case .leftRight: (-1, 0, 0, 1)
        case nil: (1, 0, 0, 1)
        }
        let total = mirrorsBeforeRotating ? times(turn, flip) : times(flip, turn)
        let orientations: [Matrix] = [(1, 0, 0, 1), (-1, 0, 0, 1), (-1, 0, 0, -1), (1, 0, 0, -1),
                                      (0, 1, 1, 0), (0, -1, 1, 0), (0, -1, -1, 0), (0, 1, -1, 0)]
        return (orientations.firstIndex { $0 == total } ?? 0) + 1
    }

    /// Nil when `bytes` has no `meta` box with a primary item.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        let reader = BMFFReader(bytes: bytes)
        guard let meta = reader.first("meta", in: 0..<bytes.count), meta.count > 4 else { return nil }
        let children = reader.boxes(in: (meta.lowerBound + 4)..<meta.upperBound)
        func child(_ type: String) -> Range<Int>? { children.first { $0.type == type }?.payload }
        guard let pitm = child("pitm"), let primary = Self.itemID(reader, fullBox: pitm) else { return nil }

        if let iprp = child("iprp") {
            let properties = reader.boxes(in: iprp)
            if let ipco = properties.first(where: { $0.type == "ipco" }),
               let ipma = properties.first(where: { $0.type == "ipma" }) {
                let list = reader.boxes(in: ipco.payload)
                var rotated = false
                for index in Self.associations(reader, ipma: ipma.payload, item: primary) where index < list.count {
                    let property = list[index], at = property.payload.lowerBound
                    switch property.type {
                    case "ispe" where primarySize == nil:
                        if let width = reader.uint32(at: at + 4), let height = reader.uint32(at: at + 8),
                           width > 0, height > 0 {
                            primarySize = PixelSize(width: Int(width), height: Int(height))
                        }
                    case "irot":
                        rotation = Int((reader.uint8(at: at) ?? 0) & 3) * 90
                        rotated = true
                    case "imir":
                        mirror = (reader.uint8(at: at) ?? 0) & 1 == 0 ? .topBottom : .leftRight
                        mirrorsBeforeRotating = !rotated
                    default: break
                    }
                }
            }
        }
        if let iinf = child("iinf"), let iloc = child("iloc"),
           let item = Self.exifItem(reader, iinf: iinf, iref: child("iref"), primary: primary),
           let data = Self.itemData(reader, iloc: iloc, idat: child("idat"), item: item),
           data.count > 4 {
            let start = 4 + Int(UInt32(data[0]) << 24 | UInt32(data[1]) << 16 | UInt32(data[2]) << 8 | UInt32(data[3]))
            // The offset should point at the TIFF header; some writers count the
            // "Exif\0\0" in front of it, some do not: look for the header from there.
            if start < data.count, let tiff = Self.tiffHeader(in: data, from: start) {
                exif = Array(data[tiff...])
            }
        }
    }

    /// `pitm`: the primary item's ID (16 bits in version 0, 32 after).
    private static func itemID(_ reader: BMFFReader, fullBox: Range<Int>) -> UInt32? {
        guard let version = reader.uint8(at: fullBox.lowerBound) else { return nil }
        return version == 0 ? reader.uint16(at: fullBox.lowerBound + 4).map(UInt32.init)
            : reader.uint32(at: fullBox.lowerBound + 4)
    }

    /// `ipma`: the (0-based) `ipco` indices of `item`'s properties, in the file's order.
    private static func associations(_ reader: BMFFReader, ipma: Range<Int>, item: UInt32) -> [Int] {
        guard let version = reader.uint8(at: ipma.lowerBound), let flags = reader.uint32(at: ipma.lowerBound),
              let count = reader.uint32(at: ipma.lowerBound + 4) else { return [] }
        let wideIndex = flags & 1 == 1
        var at = ipma.lowerBound + 8
        for _ in 0..<min(Int(count), 65536) {
            let id: UInt32?
            if version < 1 { id = reader.uint16(at: at).map(UInt32.init); at += 2 } else { id = reader.uint32(at: at); at += 4 }
            guard let id, let n = reader.uint8(at: at) else { return [] }
            at += 1
            var indices: [Int] = []
            for _ in 0..<Int(n) {
                guard let raw = wideIndex ? reader.uint16(at: at).map(Int.init) : reader.uint8(at: at).map(Int.init) else { return [] }
                at += wideIndex ? 2 : 1
                let index = raw & (wideIndex ? 0x7FFF : 0x7F)
                if index > 0 { indices.append(index - 1) }
            }
            if id == item { return indices }
        }
        return []
    }

    /// The item of type "Exif" that describes the primary image (a `cdsc` reference to
    /// it), else the first "Exif" item.
    private static func exifItem(_ reader: BMFFReader, iinf: Range<Int>, iref: Range<Int>?, primary: UInt32) -> UInt32? {
        guard let version = reader.uint8(at: iinf.lowerBound) else { return nil }
        let entries = reader.span(iinf.lowerBound + (version == 0 ? 6 : 8), iinf.upperBound)
        var exifItems: [UInt32] = []
        for infe in reader.boxes(in: entries) where infe.type == "infe" {
            let at = infe.payload.lowerBound
            guard let infeVersion = reader.uint8(at: at), infeVersion >= 2 else { continue }
            let id = infeVersion == 2 ? reader.uint16(at: at + 4).map(UInt32.init) : reader.uint32(at: at + 4)
            let typeAt = at + (infeVersion == 2 ? 8 : 10)
            guard let id, typeAt + 4 <= infe.payload.upperBound else { continue }
            if String(decoding: UnsafeRawBufferPointer(rebasing: reader.bytes[typeAt..<(typeAt + 4)]), as: UTF8.self) == "Exif" {
                exifItems.append(id)
            }
        }
        guard let iref, let version = reader.uint8(at: iref.lowerBound) else { return exifItems.first }
        let wide = version != 0
        for reference in reader.boxes(in: reader.span(iref.lowerBound + 4, iref.upperBound)) where reference.type == "cdsc" {
            var at = reference.payload.lowerBound
            func id() -> UInt32? {
                defer { at += wide ? 4 : 2 }
                return wide ? reader.uint32(at: at) : reader.uint16(at: at).map(UInt32.init)
            }
            guard let from = id(), exifItems.contains(from), let count = reader.uint16(at: at) else { continue }
            at += 2
            for _ in 0..<count where id() == primary { return from }
        }
        return exifItems.first
    }

    /// `iloc`: the item's bytes, its extents put together, from the file (construction
    /// method 0) or the `idat` box (1). At most 16 MB.
    private static func itemData(_ reader: BMFFReader, iloc: Range<Int>, idat: Range<Int>?, item: UInt32) -> [UInt8]? {
        var at = iloc.lowerBound
        guard let version = reader.uint8(at: at), let sizes = reader.uint8(at: at + 4),
              let sizes2 = reader.uint8(at: at + 5) else { return nil }
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 15)
        let baseSize = Int(sizes2 >> 4), indexSize = version >= 1 ? Int(sizes2 & 15) : 0
        at += 6
        let count: Int
        if version < 2 { count = Int(reader.uint16(at: at) ?? 0); at += 2 } else { count = Int(reader.uint32(at: at) ?? 0); at += 4 }
        for _ in 0..<min(count, 65536) {
            let id: UInt32?
            if version < 2 { id = reader.uint16(at: at).map(UInt32.init); at += 2 } else { id = reader.uint32(at: at); at += 4 }
            var method = 0
            if version >= 1 { method = Int((reader.uint16(at: at) ?? 0) & 15); at += 2 }
            at += 2   // data_reference_index
            guard let id, let base = reader.unsigned(at: at, length: baseSize),
                  let extents = reader.uint16(at: at + baseSize) else { return nil }
            at += baseSize + 2
            var data: [UInt8] = []
            for _ in 0..<extents {
                at += indexSize
                guard let offset = reader.unsigned(at: at, length: offsetSize),
                      let length = reader.unsigned(at: at + offsetSize, length: lengthSize) else { return nil }
                at += offsetSize + lengthSize
                guard id == item else { continue }
                let origin: UInt64 = method == 1 ? UInt64(idat?.lowerBound ?? Int.max) : 0
                let (start, overflow) = origin.addingReportingOverflow(base &+ offset)
                guard !overflow, method <= 1, length <= 16 << 20, start <= UInt64(reader.bytes.count),
                      length <= UInt64(reader.bytes.count) - start, data.count + Int(length) <= 16 << 20 else { return nil }
                data += reader.bytes[Int(start)..<Int(start + length)]
            }
            if id == item { return data }
        }
        return nil
    }

    private static func tiffHeader(in data: [UInt8], from start: Int) -> Int? {
        for candidate in [start, start + 6, start - 6, 6, 0] where candidate >= 0 && candidate + 4 <= data.count {
            let head = data[candidate..<(candidate + 4)]
            if head.elementsEqual([0x49, 0x49, 0x2A, 0]) || head.elementsEqual([0x4D, 0x4D, 0, 0x2A]) { return candidate }
        }
        return nil
    }
}
