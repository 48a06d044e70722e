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

import CVips
import PhotomillCore

/// The pictures of a still that libvips opened (`PhotoProcessor.openStill`): upright, at
/// most a given size, made the cheapest way that is right for the file.
///
/// - **Most files**: `vips_thumbnail` (shrink-on-load, EXIF orientation, ICC profile to
///   sRGB). A Google or Apple gain-map JPEG or HEIC is shown as its SDR base image, the
///   primary picture libvips and libheif decode: the gain map is a second image (an MPF
///   entry after the JPEG, an auxiliary HEIF item) that no thumbnail needs.
/// - **HEIF orientation**: libheif hands pixels over with only the container's
///   `irot`/`imir` applied and libvips then drops the EXIF orientation, so a HEIF without
///   those boxes is turned by its EXIF orientation (iPhone 7 HEICs: orientation 6, no
///   `irot`). With them, the EXIF value describes the same turn and is not applied again.
/// - **HEIF grids** (how phones store their photos) are decoded tile by tile
///   (`TiledHEIF`), never whole at full size.
/// - **Deep, HDR and wide-gamut HEIF and AVIF** by libheif's own API (`HEIFPictures`),
///   which libvips 8.14 gets wrong; also any HEIF whose thumbnail libvips refuses.
/// - **HDR JPEG XL** (PQ or HLG): libvips describes a JPEG XL's colour encoding only as
///   the ICC profile libjxl synthesises, with which lcms would show PQ nearly black; such
///   a picture is decoded by libvips, shrunk in its coding and converted by
///   `ColourConverter` (`ColourEncoding(iccProfile:)`).
///
/// Reads `bytes` in place: they must outlive it.
struct StillPictures {
    private let bytes: UnsafeRawBufferPointer
    private let path: String
    private let pixelLimit: Int
    private let size: (width: Int, height: Int)
    /// The EXIF orientation still to apply (HEIF without `irot`/`imir`), else 1.
    private let turn: Int
    private let tiled: TiledHEIF?
    private let heif: HEIFPictures?
    /// Colours photomill converts itself, named by the ICC profile (HDR JPEG XL).
    private let encoding: ColourEncoding?
    /// The orientation libvips read from the file (a JPEG XL's), applied with `encoding`.
    private let orientation: Int

    init(
        _ bytes: UnsafeRawBufferPointer,
        format: MediaFormat,
        header: VipsImageRef,
        exifOrientation: Int,
        path: String,
        pixelLimit: Int
    ) {
        self.bytes = bytes
        self.path = path
        self.pixelLimit = pixelLimit
        size = (header.width, header.height)
        orientation = header.integer("orientation") ?? 1
        var turn = 1
        var tiled: TiledHEIF?
        var heif: HEIFPictures?
        if [.heic, .heif, .avif].contains(format), let items = HEIFItems(bytes) {
            let layout = HEIFLayout(items)
            if layout.rotation == 0, layout.mirror == nil { turn = exifOrientation }
            tiled = TiledHEIF(items, exifOrientation: exifOrientation)
            heif = HEIFPictures(bytes)
            encoding = nil
        } else {
            encoding = header.blob("icc-profile-data").flatMap(ColourEncoding.init(iccProfile:)).flatMap {
                $0.needsConversion ? $0 : nil
            }
        }
        self.turn = turn
        self.tiled = tiled
        self.heif = heif
    }

    /// The upright picture, its longest side at most `side`. Refused (`too-large`) before
    /// any decoding when the image has more than `pixelLimit` pixels.
    func picture(_ side: Int) throws(ProcessingError) -> VipsImageRef {
        try ProcessingError.checkPixels(width: size.width, height: size.height, limit: pixelLimit, path: path)
        if let picture = try tiled?.picture(side, path: path, pixelLimit: pixelLimit) { return picture }
        if let heif, heif.needsOwnDecoding {
            let picture = try heif.picture(side, path: path, pixelLimit: pixelLimit)
            return try PhotoProcessor.damaged(path) { () throws(VipsError) in try picture.oriented(turn) }
        }
        if let encoding {
            return try PhotoProcessor.damaged(path) { () throws(VipsError) in
                try VipsImageRef.loading(bytes).resized(toLongestSide: side).convertedToSRGB(from: encoding).oriented(
                    orientation
                )
            }
        }
        do {
            return try PhotoProcessor.damaged(path) { () throws(VipsError) in
                try VipsImageRef.thumbnail(of: bytes, size: side).oriented(turn)
            }
        } catch {
            // libvips 8.14 refuses a HEIF thumbnail coded larger than its `ispe` size.
            guard let heif, let picture = try? heif.picture(side, path: path, pixelLimit: pixelLimit) else {
                throw error
            }
            return try PhotoProcessor.damaged(path) { () throws(VipsError) in try picture.oriented(turn) }
        }
    }
}
