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

extension Photomill_V1_Metadata {
    /// Only fields that are present are checked: absence is the honest answer for a value a
    /// photo does not record (PhotoMetadata keeps garbage as nil, never 0 or "").
    func validate(_ check: FieldChecker, _ field: @autoclosure () -> String) throws(ProtocolViolation) {
        let textFields: [(Bool, String, String)] = [
            (hasDateTaken, dateTaken, "date_taken"),
            (hasFileModificationDate, fileModificationDate, "file_modification_date"),
            (hasCameraMake, cameraMake, "camera_make"),
            (hasCameraModel, cameraModel, "camera_model"),
            (hasLensModel, lensModel, "lens_model"),
            (hasVideoCodec, videoCodec, "video_codec"),
            (hasTitle, title, "title"),
            (hasLabel, label, "label"),
            (hasContentIdentifier, contentIdentifier, "content_identifier"),
        ]
        for (present, value, name) in textFields where present {
            try check.text(value, "\(field()).\(name)", bytes: FieldBounds.metadataTextBytes)
        }
        if hasPixelWidth { try check.range(pixelWidth, FieldBounds.pixelSide, "\(field()).pixel_width") }
        if hasPixelHeight { try check.range(pixelHeight, FieldBounds.pixelSide, "\(field()).pixel_height") }
        if hasOrientation { try check.range(orientation, FieldBounds.orientation, "\(field()).orientation") }
        if hasGpsLatitude { try check.finite(gpsLatitude, FieldBounds.latitude, "\(field()).gps_latitude") }
        if hasGpsLongitude { try check.finite(gpsLongitude, FieldBounds.longitude, "\(field()).gps_longitude") }
        // A position is a pair: half of one is no place.
        if hasGpsLatitude != hasGpsLongitude {
            throw check.violation("\(field()).gps_latitude", "latitude and longitude must come together")
        }
        if hasAperture { try check.finite(aperture, FieldBounds.aperture, "\(field()).aperture", positive: true) }
        if hasShutterSpeed {
            try check.finite(shutterSpeed, FieldBounds.shutterSpeed, "\(field()).shutter_speed", positive: true)
        }
        if hasIso { try check.range(iso, FieldBounds.iso, "\(field()).iso") }
        if hasFocalLength {
            try check.finite(focalLength, FieldBounds.focalLength, "\(field()).focal_length", positive: true)
        }
        if hasMediaType, MediaType(rawValue: mediaType) == nil {
            throw check.violation("\(field()).media_type", "\(check.quote(mediaType)) is not photo, raw or video")
        }
        if hasDuration { try check.finite(duration, FieldBounds.duration, "\(field()).duration") }
        if hasFrameRate { try check.finite(frameRate, FieldBounds.frameRate, "\(field()).frame_rate", positive: true) }
        if hasDescription_p {
            try check.text(description_p, "\(field()).description", bytes: FieldBounds.descriptionBytes)
        }
        try check.count(keywords.count, FieldBounds.keywords, "\(field()).keywords")
        for (index, keyword) in keywords.enumerated() {
            try check.text(
                keyword,
                "\(field()).keywords[\(index)]",
                bytes: 1...FieldBounds.metadataTextBytes.upperBound
            )
        }
        if hasRating { try check.range(rating, FieldBounds.rating, "\(field()).rating") }
    }
}
