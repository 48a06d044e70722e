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
import PhotoProcessing
import PhotomillCore

/// A camera RAW of any size that we make ourselves: an uncompressed 16-bit Bayer (RGGB)
/// DNG 1.4, with the embedded previews laid out as Adobe's DNG Converter lays them out.
///
/// photomill has no large RAW file to test and measure with (the corpus's RAWs from
/// exiftool have their image data stripped), and LibRaw decodes any well-formed DNG
/// whatever the camera, so this is the RAW the decoder's tests and its memory
/// measurement use.
///
/// The picture is four flat quadrants *as the sensor saw them* — top left red, top right
/// green, bottom left blue, bottom right white (`Quadrant`) — so that a decoded picture
/// shows whether orientation and colours were applied: each of the eight orientations
/// puts a different colour in the top-left corner or a different one beside it.
public struct SyntheticDNG: Sendable {
    /// Stored (sensor) size in pixels; both even, so every quadrant holds whole 2×2
    /// Bayer cells.
    public var width: Int
    public var height: Int
    /// The EXIF orientation in IFD0 (1…8): how the stored picture is to be turned for
    /// display.
    public var orientation: Int
    /// The pictures stored beside the samples (the same picture, unrotated, as cameras
    /// store it), in file order as the DNG Converter writes them with "full size"
    /// previews (../shared/corpus/formats/DNG.dng): the first in IFD0, whose SubIFDs are
    /// the raw image and then the others — a 256-pixel RGB thumbnail, a 1024-pixel JPEG,
    /// a full-size JPEG. Empty: IFD0 is the raw image.
    public var previews: [Preview]
    public var make = "Photomill"
    public var model = "Synthetic RGGB"

    public init(width: Int, height: Int, orientation: Int = 1, previews: [Preview] = []) {
        self.width = width
        self.height = height
        self.orientation = orientation
        self.previews = previews
    }

    /// One embedded picture.
    public struct Preview: Sendable {
        /// Its longest side; the other keeps the sensor's aspect.
        public var longestSide: Int
        /// A JPEG, as nearly every camera stores its previews, or 8-bit RGB pixels, as the
        /// DNG Converter stores its thumbnail and LibRaw hands over as a bitmap.
        public var encoding: PreviewEncoding
        /// An EXIF Orientation inside the preview JPEG itself, or nil for a JPEG without
        /// EXIF: lets tests give the preview an orientation that disagrees with the RAW's.
        public var exifOrientation: Int?

        public init(longestSide: Int, encoding: PreviewEncoding = .jpeg, exifOrientation: Int? = nil) {
            self.longestSide = longestSide
            self.encoding = encoding
            self.exifOrientation = exifOrientation
        }
    }

    public enum PreviewEncoding: Sendable {
        case jpeg
        case uncompressedRGB
    }

    /// A preview's stored size: the sensor's aspect, its `longestSide` on the long side.
    public func size(of preview: Preview) -> (width: Int, height: Int) {
        let scale = Double(preview.longestSide) / Double(max(width, height))
        return (max(2, Int((Double(width) * scale).rounded())), max(2, Int((Double(height) * scale).rounded())))
    }

    /// Writes the file, streaming the raw rows so that a 45-megapixel DNG (90 MB of
    /// samples) never exists in memory at once.
    public func write(to url: URL) throws(SampleError) {
        guard width >= 64, height >= 64, width % 2 == 0, height % 2 == 0 else {
            throw SampleError(
                file: url.path,
                message: "\(width)×\(height): a synthetic DNG needs even sides of at least 64 pixels"
            )
        }
        guard (1...8).contains(orientation) else {
            throw SampleError(file: url.path, message: "orientation \(orientation) is not 1…8")
        }
        let rawBytes = width * height * 2
        let encoded: [[UInt8]]
        do {
            encoded = try previews.map(bytes(of:))
        } catch {
            throw SampleError(file: url.path, message: "cannot encode a preview: \(error.message)")
        }
        let head = try header(previewBytes: encoded, rawBytes: rawBytes, file: url.path)

        guard FileManager.default.createFile(atPath: url.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: url)
        else {
            throw SampleError(file: url.path, message: "cannot create the file")
        }
        do {
            defer { try? handle.close() }
            try handle.write(contentsOf: head)
            try writeRawRows(to: handle)
        } catch {
            throw SampleError(file: url.path, message: "cannot write: \(error.fileSystemReason)")
        }
    }

    /// The 16-bit CFA samples, row after row, little-endian, written 64 rows at a time.
    private func writeRawRows(to handle: FileHandle) throws {
        let rows = (0..<4).map { bayerRow(parity: $0 % 2, lowerHalf: $0 >= 2) }
        var chunk = [UInt8]()
        chunk.reserveCapacity(width * 2 * 64)
        for y in 0..<height {
            chunk.append(contentsOf: rows[(y % 2) + (y >= height / 2 ? 2 : 0)])
            if chunk.count >= width * 2 * 64 || y == height - 1 {
                try handle.write(contentsOf: chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
    }

    /// One sensor row: RGGB sites (R G on even rows, G B on odd ones) taking the
    /// channel of their quadrant's colour.
    private func bayerRow(parity: Int, lowerHalf: Bool) -> [UInt8] {
        let left: Quadrant = lowerHalf ? .bottomLeft : .topLeft
        let right: Quadrant = lowerHalf ? .bottomRight : .topRight
        var row = [UInt8]()
        row.reserveCapacity(width * 2)
        for x in 0..<width {
            let colour = (x < width / 2 ? left : right).linear
            let channel = parity == 0 ? (x % 2 == 0 ? 0 : 1) : (x % 2 == 0 ? 1 : 2)
            let sample = UInt16((colour[channel] * 65535).rounded())
            row.append(UInt8(sample & 0xFF))
            row.append(UInt8(sample >> 8))
        }
        return row
    }

    /// A preview's bytes: the quadrants in their sRGB colours, stored unrotated, as a
    /// baseline JPEG (with an EXIF block only when `exifOrientation` asks for one) or as
    /// packed RGB.
    private func bytes(of preview: Preview) throws(VipsError) -> [UInt8] {
        let size = size(of: preview)
        let rowBytes = size.width * 3
        var pixels = [UInt8]()
        pixels.reserveCapacity(rowBytes * size.height)
        for lowerHalf in [false, true] {
            var row = [UInt8]()
            row.reserveCapacity(rowBytes)
            for x in 0..<size.width {
                let quadrant: Quadrant =
                    x < size.width / 2
                    ? (lowerHalf ? .bottomLeft : .topLeft)
                    : (lowerHalf ? .bottomRight : .topRight)
                row.append(contentsOf: quadrant.sRGB)
            }
            let rows = lowerHalf ? size.height - size.height / 2 : size.height / 2
            for _ in 0..<rows { pixels.append(contentsOf: row) }
        }
        guard preview.encoding == .jpeg else { return pixels }
        let jpeg = try ImageEncoder.jpeg(RGBImage(width: size.width, height: size.height, pixels: pixels), quality: 90)
        guard let orientation = preview.exifOrientation else { return jpeg }
        var fields = ExifFields()
        fields.orientation = orientation
        return ExifWriter.insert(ExifWriter.payload(fields), intoJPEG: jpeg)
    }
}

extension SyntheticDNG {
    /// The four flat quadrants of the stored picture.
    public enum Quadrant: CaseIterable, Sendable {
        case topLeft, topRight, bottomLeft, bottomRight

        /// Linear camera RGB (0…1). The DNG's colour matrix makes camera RGB linear sRGB,
        /// so these are also linear sRGB; none reaches 1, so nothing clips.
        public var linear: [Double] {
            switch self {
            case .topLeft: [0.80, 0.03, 0.03]  // red
            case .topRight: [0.03, 0.80, 0.03]  // green
            case .bottomLeft: [0.03, 0.03, 0.80]  // blue
            case .bottomRight: [0.85, 0.85, 0.85]  // white
            }
        }

        /// `linear` through the sRGB transfer curve, in 8 bits: the preview's colour.
        public var sRGB: [UInt8] {
            linear.map { value in
                let encoded = value <= 0.0031308 ? 12.92 * value : 1.055 * pow(value, 1 / 2.4) - 0.055
                return UInt8((encoded * 255).rounded())
            }
        }
    }
}
