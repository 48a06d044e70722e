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

extension ExifWriter {
    /// A baseline, uncompressed RGB TIFF whose IFD0 also carries `fields`.
    ///
    /// libvips 8.14's tiffsave writes no EXIF (only Orientation), yet TIFFs from cameras
    /// and scanners carry Make, Model, dates and GPS in IFD0 and its sub-IFDs, and
    /// photomill reads them there. libexif lays out exactly that structure, so the file
    /// is libexif's TIFF with the image tags added to IFD0 and the pixels appended. The
    /// pixels come last because libexif reads at most 64 KiB.
    public static func tiff(_ image: RGBImage, fields: ExifFields) -> [UInt8] {
        let builder = ExifBuilder()
        add(fields, to: builder)
        builder.long(.zero, 0x0100, UInt32(image.width))  // ImageWidth
        builder.long(.zero, 0x0101, UInt32(image.height))  // ImageLength
        builder.shorts(.zero, 0x0102, [8, 8, 8])  // BitsPerSample
        builder.shorts(.zero, 0x0103, [1])  // Compression: none
        builder.shorts(.zero, 0x0106, [2])  // PhotometricInterpretation: RGB
        let stripOffset = builder.long(.zero, 0x0111, 0)  // StripOffsets
        builder.shorts(.zero, 0x0115, [3])  // SamplesPerPixel
        builder.long(.zero, 0x0116, UInt32(image.height))  // RowsPerStrip
        builder.long(.zero, 0x0117, UInt32(image.pixels.count))  // StripByteCounts
        builder.rationals(.zero, 0x011A, [Rational(numerator: 300, denominator: 1)])  // XResolution
        builder.rationals(.zero, 0x011B, [Rational(numerator: 300, denominator: 1)])  // YResolution
        builder.shorts(.zero, 0x011C, [1])  // PlanarConfiguration: chunky
        builder.shorts(.zero, 0x0128, [2])  // ResolutionUnit: inch

        // The strip offset's value does not change the layout, so a first pass gives
        // the length of the header, and the second writes the offset into it.
        let exifHeader = 6
        let headerLength = builder.save().count - exifHeader
        let pixelOffset = (headerLength + 1) & ~1  // TIFF values start on word boundaries
        builder.setLong(stripOffset, UInt32(pixelOffset))
        let header = builder.save().dropFirst(exifHeader)
        precondition(header.count == headerLength, "libexif changed the TIFF layout between two saves")

        var out = [UInt8]()
        out.reserveCapacity(pixelOffset + image.pixels.count)
        out.append(contentsOf: header)
        if out.count < pixelOffset { out.append(0) }
        out.append(contentsOf: image.pixels)
        return out
    }
}
