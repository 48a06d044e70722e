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

import Catalog
import PhotomillCore

/// The content of `metadata/{md5}.plist`: what a content says, whichever file holds it —
/// the photo metadata vocabulary (the same names as `inspect --json`) less what belongs to
/// one file (`ExportedFile`), the file size, the content hashes and the recognised text, in
/// one flat dictionary. Absent values are left out. docs/exports.md documents every key.
public struct ExportedPhoto: Encodable, Sendable, Hashable {
    public var metadata: PhotoMetadata
    public var fileSize: Int64
    public var md5: String
    public var sha256: String?
    public var ocrText: String?
    /// The similarity kind's hash of the content's picture, 16 lowercase hex digits.
    public var perceptualHash: String?

    /// `record`: the content's first photo (`Catalog.contentOwners`).
    public init(_ record: ExportRecord, stripGPS: Bool) {
        metadata = record.metadata ?? PhotoMetadata()
        // The file's keys (`ExportedFile`): in photos/{id}.plist only.
        metadata.fileModificationDate = nil
        metadata.title = nil
        metadata.description = nil
        metadata.keywords = nil
        metadata.rating = nil
        metadata.label = nil
        if stripGPS {
            metadata.gpsLatitude = nil
            metadata.gpsLongitude = nil
        }
        fileSize = record.size
        md5 = record.md5
        sha256 = record.sha256
        ocrText = record.ocrText
        perceptualHash = record.perceptualHash?.hex
    }

    private enum CodingKeys: String, CodingKey { case fileSize, md5, sha256, ocrText, perceptualHash }

    public func encode(to encoder: any Encoder) throws {
        // The metadata's keys and these share one dictionary.
        try metadata.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fileSize, forKey: .fileSize)
        try container.encode(md5, forKey: .md5)
        try container.encodeIfPresent(sha256, forKey: .sha256)
        try container.encodeIfPresent(ocrText, forKey: .ocrText)
        try container.encodeIfPresent(perceptualHash, forKey: .perceptualHash)
    }
}

/// The content of `photos/{photoId}.plist`: what belongs to one file, so that copies of one
/// content (one `metadata/{md5}.plist`) keep their own: the path, the modification date,
/// what its XMP sidecar says (title, description, keywords, rating, label, and a date or a
/// place where the content has none), and the other half of its Live Photo.
public struct ExportedFile: Encodable, Sendable, Hashable {
    public var path: String
    public var md5: String
    public var fileModificationDate: String?
    public var title: String?
    public var description: String?
    public var keywords: [String]?
    public var rating: Int?
    public var label: String?
    public var dateTaken: String?
    public var gpsLatitude: Double?
    public var gpsLongitude: Double?
    public var livePhoto: String?

    public init(_ record: ExportRecord, stripGPS: Bool) {
        let metadata = record.metadata ?? PhotoMetadata()
        path = record.path
        md5 = record.md5
        fileModificationDate = metadata.fileModificationDate
        title = metadata.title
        description = metadata.description
        keywords = metadata.keywords
        rating = metadata.rating
        label = metadata.label
        dateTaken = metadata.dateTaken
        if !stripGPS {
            gpsLatitude = metadata.gpsLatitude
            gpsLongitude = metadata.gpsLongitude
        }
        livePhoto = record.livePhoto
    }
}

/// `manifest.plist`: which photo (path) each export belongs to.
public struct ExportManifest: Codable, Sendable {
    public struct Entry: Codable, Sendable, Hashable {
        public var md5: String
        public var path: String
        public var hasThumbnail: Bool
        /// Names the file's own plist, `photos/{photoId}.plist` (format 3).
        public var photoId: Int64?
    }
    /// 2 since the second round: mediaType, duration, videoCodec, frameRate, title,
    /// description, keywords, rating, label, contentIdentifier, livePhoto. 3 since the
    /// third: a file's own keys in `photos/{photoId}.plist`, and `perceptualHash`
    /// (docs/exports.md).
    public static let currentFormat = 3
    public var formatVersion = currentFormat
    public var generatedAt: String
    public var gpsStripped: Bool
    public var photos: [Entry]
}
