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

// The protocol edge of `PhotoMetadata`: the one place it converts to and from the wire.

extension Photomill_V1_Metadata {
    /// The wire form of `m`, keeping only values inside the protocol's bounds
    /// (`FieldBounds`): a coordinator drops a whole RESULT with one field out of bounds,
    /// so one camera's nonsense must not cost the photo its other results.
    public init(_ m: PhotoMetadata) {
        self.init()
        func text(_ value: String?) -> String? {
            guard let value, FieldBounds.metadataTextBytes.contains(value.utf8.count) else { return nil }
            return value
        }
        func within<T: Comparable>(_ value: T?, _ bounds: ClosedRange<T>) -> T? {
            guard let value, bounds.contains(value) else { return nil }
            return value
        }
        if let v = text(m.dateTaken) { dateTaken = v }
        if let v = text(m.fileModificationDate) { fileModificationDate = v }
        if let v = within(m.pixelWidth.map(Int64.init), FieldBounds.pixelSide) { pixelWidth = v }
        if let v = within(m.pixelHeight.map(Int64.init), FieldBounds.pixelSide) { pixelHeight = v }
        if let v = text(m.cameraMake) { cameraMake = v }
        if let v = text(m.cameraModel) { cameraModel = v }
        if let v = within(m.orientation.map(Int32.init), FieldBounds.orientation) { orientation = v }
        if let lat = within(m.gpsLatitude, FieldBounds.latitude),
            let lon = within(m.gpsLongitude, FieldBounds.longitude)
        {
            gpsLatitude = lat
            gpsLongitude = lon
        }
        if let v = within(m.aperture, FieldBounds.aperture) { aperture = v }
        if let v = within(m.shutterSpeed, FieldBounds.shutterSpeed) { shutterSpeed = v }
        if let v = within(m.iso.map(Int64.init), FieldBounds.iso) { iso = v }
        if let v = within(m.focalLength, FieldBounds.focalLength) { focalLength = v }
        if let v = text(m.lensModel) { lensModel = v }
        if let v = m.mediaType { mediaType = v.rawValue }
        if let v = within(m.duration, FieldBounds.duration), v.isFinite { duration = v }
        if let v = text(m.videoCodec) { videoCodec = v }
        if let v = within(m.frameRate, FieldBounds.frameRate), v > 0 { frameRate = v }
        if let v = text(m.title) { title = v }
        if let v = m.description, FieldBounds.descriptionBytes.contains(v.utf8.count) { description_p = v }
        if let v = m.keywords {
            keywords = Array(
                v.filter { !$0.isEmpty && FieldBounds.metadataTextBytes.contains($0.utf8.count) }
                    .prefix(FieldBounds.keywords.upperBound)
            )
        }
        if let v = within(m.rating.map(Int32.init(clamping:)), FieldBounds.rating) { rating = v }
        if let v = text(m.label) { label = v }
        if let v = text(m.contentIdentifier) { contentIdentifier = v }
    }
}

extension PhotoMetadata {
    /// The values a (validated) wire message holds; absent fields stay nil.
    public init(_ m: Photomill_V1_Metadata) {
        self.init()
        if m.hasDateTaken { dateTaken = m.dateTaken }
        if m.hasFileModificationDate { fileModificationDate = m.fileModificationDate }
        if m.hasPixelWidth { pixelWidth = Int(m.pixelWidth) }
        if m.hasPixelHeight { pixelHeight = Int(m.pixelHeight) }
        if m.hasCameraMake { cameraMake = m.cameraMake }
        if m.hasCameraModel { cameraModel = m.cameraModel }
        if m.hasOrientation { orientation = Int(m.orientation) }
        if m.hasGpsLatitude { gpsLatitude = m.gpsLatitude }
        if m.hasGpsLongitude { gpsLongitude = m.gpsLongitude }
        if m.hasAperture { aperture = m.aperture }
        if m.hasShutterSpeed { shutterSpeed = m.shutterSpeed }
        if m.hasIso { iso = Int(m.iso) }
        if m.hasFocalLength { focalLength = m.focalLength }
        if m.hasLensModel { lensModel = m.lensModel }
        if m.hasMediaType { mediaType = MediaType(rawValue: m.mediaType) }
        if m.hasDuration { duration = m.duration }
        if m.hasVideoCodec { videoCodec = m.videoCodec }
        if m.hasFrameRate { frameRate = m.frameRate }
        if m.hasTitle { title = m.title }
        if m.hasDescription_p { description = m.description_p }
        if !m.keywords.isEmpty { keywords = m.keywords }
        if m.hasRating { rating = Int(m.rating) }
        if m.hasLabel { label = m.label }
        if m.hasContentIdentifier { contentIdentifier = m.contentIdentifier }
    }
}
