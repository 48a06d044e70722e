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
        let flip: Matrix =
            switch mirror {
            case .topBottom: (1, 0, 0, -1)
            case .leftRight: (-1, 0, 0, 1)
            case nil: (1, 0, 0, 1)
            }
        let total = mirrorsBeforeRotating ? times(turn, flip) : times(flip, turn)
        let orientations: [Matrix] = [
            (1, 0, 0, 1), (-1, 0, 0, 1), (-1, 0, 0, -1), (1, 0, 0, -1),
            (0, 1, 1, 0), (0, -1, 1, 0), (0, -1, -1, 0), (0, 1, -1, 0),
        ]
        return (orientations.firstIndex { $0 == total } ?? 0) + 1
    }

    /// Nil when `bytes` has no `meta` box with a primary item.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        guard let items = HEIFItems(bytes) else { return nil }
        self.init(items)
    }

    init(_ items: HEIFItems) {
        let reader = items.reader
        var rotated = false
        for (property, _) in items.properties(of: items.primary) {
            let at = property.payload.lowerBound
            switch property.type {
            case "ispe" where primarySize == nil:
                if let width = reader.uint32(at: at + 4), let height = reader.uint32(at: at + 8), width > 0, height > 0
                {
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
        if let item = Self.exifItem(items), let data = items.data(of: item), data.count > 4 {
            let start = 4 + Int(UInt32(data[0]) << 24 | UInt32(data[1]) << 16 | UInt32(data[2]) << 8 | UInt32(data[3]))
            // The offset should point at the TIFF header; some writers count the
            // "Exif\0\0" in front of it, some do not: look for the header from there.
            if start < data.count, let tiff = Self.tiffHeader(in: data, from: start) {
                exif = Array(data[tiff...])
            }
        }
    }

    /// The item of type "Exif" that describes the primary image (a `cdsc` reference to
    /// it), else the first "Exif" item.
    private static func exifItem(_ items: HEIFItems) -> UInt32? {
        let exifItems = items.items.filter { $0.type == "Exif" }.map(\.id)
        let described = items.references.first {
            $0.type == "cdsc" && exifItems.contains($0.from) && $0.to.contains(items.primary)
        }
        return described?.from ?? exifItems.first
    }

    private static func tiffHeader(in data: [UInt8], from start: Int) -> Int? {
        for candidate in [start, start + 6, start - 6, 6, 0] where candidate >= 0 && candidate + 4 <= data.count {
            let head = data[candidate..<(candidate + 4)]
            if head.elementsEqual([0x49, 0x49, 0x2A, 0]) || head.elementsEqual([0x4D, 0x4D, 0, 0x2A]) {
                return candidate
            }
        }
        return nil
    }
}
