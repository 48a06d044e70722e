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

import PhotomillCore

/// The values each field may take (PROTOCOL.md, "Field rules"). Public so that senders
/// can clamp or refuse before they build a message a receiver would drop. Byte counts are
/// of the UTF-8 encoding. The bounds are chosen so that a body within them always fits in
/// `Limits.default.maxBodyBytes`.
public enum FieldBounds {
    /// Job ids, lease tokens and worker ids: printable ASCII without spaces.
    public static let idBytes = 1...128
    public static let hostBytes = 1...255
    public static let softwareVersionBytes = 1...64
    /// Absolute, normalised paths and path roots.
    public static let pathBytes = 1...4_096
    public static let pathRoots = 0...64
    /// An XMP sidecar's size (`XMPSidecar.maxBytes`).
    public static let sidecarBytes: ClosedRange<UInt64> = 0...UInt64(XMPSidecar.maxBytes)
    /// One tesseract language name ("eng", "chi_sim").
    public static let ocrLanguageNameBytes = 1...32
    public static let ocrLanguages = 0...64
    /// A language list as tesseract takes it ("eng+deu").
    public static let ocrLanguageSpecBytes = 1...255

    public static let slots: ClosedRange<UInt32> = 1...1_024
    public static let heartbeatIntervalMs: ClosedRange<UInt32> = 100...60_000
    /// Per-kind lease: from 100 ms to a day (OCR of a huge scan on a slow box).
    public static let deadlineMs: ClosedRange<UInt32> = 100...86_400_000
    /// One EXTEND asks for at most an hour more.
    public static let extraMs: ClosedRange<UInt32> = 100...3_600_000

    public static let thumbnailSize: ClosedRange<UInt32> = 16...8_192
    public static let thumbnailQuality: ClosedRange<UInt32> = 1...100
    public static let ocrMaxSide: ClosedRange<UInt32> = 64...65_536
    public static let ocrMinConfidence: ClosedRange<UInt32> = 1...100
    public static let pixelLimit: ClosedRange<UInt64> = 1...1_000_000_000_000

    /// Width and height of a thumbnail in a RESULT.
    public static let thumbnailSide: ClosedRange<UInt32> = 1...16_384
    /// Stored pixel width and height of a photo.
    public static let pixelSide: ClosedRange<Int64> = 1...1_000_000
    public static let orientation: ClosedRange<Int32> = 1...8
    public static let latitude: ClosedRange<Double> = -90...90
    public static let longitude: ClosedRange<Double> = -180...180
    /// Aperture, shutter speed and focal length must also be greater than zero.
    public static let aperture: ClosedRange<Double> = 0...1_000
    public static let shutterSpeed: ClosedRange<Double> = 0...1_000_000
    public static let focalLength: ClosedRange<Double> = 0...100_000
    public static let iso: ClosedRange<Int64> = 1...10_000_000
    public static let ocrConfidence: ClosedRange<Double> = 0...100
    public static let ocrRotations: Set<UInt32> = [0, 90, 180, 270]

    /// EXIF text (camera, lens), ISO 8601 dates, titles, labels and codec names.
    public static let metadataTextBytes = 0...1_024
    /// A photo's description (XMP `dc:description`).
    public static let descriptionBytes = 0...16_384
    /// Keywords (XMP `dc:subject`): at most this many, each of `metadataTextBytes`.
    public static let keywords = 0...256
    /// XMP's rating: −1 (rejected) to 5 stars.
    public static let rating: ClosedRange<Int32> = -1...5
    /// A video's length in seconds (a day at most) and its frames per second.
    public static let duration: ClosedRange<Double> = 0...86_400
    public static let frameRate: ClosedRange<Double> = 0...10_000
    public static let ocrTextBytes = 0...262_144
    public static let recipeBytes = 1...512
    /// Error classes: lowercase letters, digits and '-', starting with a letter or digit.
    public static let errorClassBytes = 1...64
    public static let errorMessageBytes = 1...4_096
    public static let disconnectReasonBytes = 0...1_024
    /// Job ids in one ACK, committed and discarded together.
    public static let ackEntries = 1...4_096
    /// JOBs in one JOBS: no more than a worker's slots can take.
    public static let batchJobs = 1...1_024
    /// RESULTs and FAILs in one RESULTS: as many as one ACK settles.
    public static let batchResults = 1...4_096
}
