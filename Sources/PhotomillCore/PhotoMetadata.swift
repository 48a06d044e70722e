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

/// What a photo says about itself: one record from the processor through the wire and the
/// catalog to the exports. Property names are the public vocabulary of photomill:
/// `inspect --json`, the catalog's `metadata` columns and the plist exports all use them.
/// Absent or garbage values stay `nil`, never 0 or "".
public struct PhotoMetadata: Sendable, Hashable, Codable {
    /// When the photo was taken, ISO 8601 local time (`2008-05-30T15:56:01`), with the
    /// offset (`+02:00`) when the file records one.
    public var dateTaken: String?
    /// The file's modification time, ISO 8601 in UTC (`2026-11-22T01:14:00Z`).
    public var fileModificationDate: String?
    /// Stored (not display-rotated) pixel size, from the decoded image header.
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    public var cameraMake: String?
    public var cameraModel: String?
    /// EXIF orientation, 1…8.
    public var orientation: Int?
    /// Signed decimal degrees: north and east positive.
    public var gpsLatitude: Double?
    public var gpsLongitude: Double?
    /// f-number.
    public var aperture: Double?
    /// Exposure time in seconds.
    public var shutterSpeed: Double?
    public var iso: Int?
    /// Focal length in millimetres.
    public var focalLength: Double?
    public var lensModel: String?

    // Second round: RAW, video and sidecars.

    /// `photo`, `raw` or `video`: what the file was recognised as (`MediaFormat`).
    public var mediaType: MediaType?
    /// A video's length in seconds.
    public var duration: Double?
    /// A video's codec as FFmpeg names it (`h264`, `hevc`, `prores`).
    public var videoCodec: String?
    /// A video's average frame rate, frames per second.
    public var frameRate: Double?
    /// From the XMP sidecar (or the file's own XMP): `dc:title`, `dc:description`,
    /// `dc:subject`, `xmp:Rating` (−1 rejected … 5), `xmp:Label`.
    public var title: String?
    public var description: String?
    public var keywords: [String]?
    public var rating: Int?
    public var label: String?
    /// Apple's content identifier, which a Live Photo's still and video share.
    public var contentIdentifier: String?

    public init() {}
}
