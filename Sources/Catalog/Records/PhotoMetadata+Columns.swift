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
internal import GRDB
import PhotomillCore

/// `PhotoMetadata` as the columns of table `metadata` (the same names as its properties),
/// but for `mediaType`, which the scan keeps in `photos` (the worker recognises the same
/// bytes the same way) and readers select from there.
extension PhotoMetadata {
    /// Each column and the value it takes from the record, named together (a commit writes
    /// them: `CommitStatements.metadata`).
    static let databaseColumns: [RowColumn<PhotoMetadata>] = [
        RowColumn("dateTaken") { $0.dateTaken?.databaseValue ?? .null },
        RowColumn("fileModificationDate") { $0.fileModificationDate?.databaseValue ?? .null },
        RowColumn("pixelWidth") { $0.pixelWidth?.databaseValue ?? .null },
        RowColumn("pixelHeight") { $0.pixelHeight?.databaseValue ?? .null },
        RowColumn("cameraMake") { $0.cameraMake?.databaseValue ?? .null },
        RowColumn("cameraModel") { $0.cameraModel?.databaseValue ?? .null },
        RowColumn("orientation") { $0.orientation?.databaseValue ?? .null },
        RowColumn("gpsLatitude") { $0.gpsLatitude?.databaseValue ?? .null },
        RowColumn("gpsLongitude") { $0.gpsLongitude?.databaseValue ?? .null },
        RowColumn("aperture") { $0.aperture?.databaseValue ?? .null },
        RowColumn("shutterSpeed") { $0.shutterSpeed?.databaseValue ?? .null },
        RowColumn("iso") { $0.iso?.databaseValue ?? .null },
        RowColumn("focalLength") { $0.focalLength?.databaseValue ?? .null },
        RowColumn("lensModel") { $0.lensModel?.databaseValue ?? .null },
        RowColumn("duration") { $0.duration?.databaseValue ?? .null },
        RowColumn("videoCodec") { $0.videoCodec?.databaseValue ?? .null },
        RowColumn("frameRate") { $0.frameRate?.databaseValue ?? .null },
        RowColumn("title") { $0.title?.databaseValue ?? .null },
        RowColumn("description") { $0.description?.databaseValue ?? .null },
        RowColumn("keywords") { $0.keywords.map(Self.keywordsColumn)?.databaseValue ?? .null },
        RowColumn("rating") { $0.rating?.databaseValue ?? .null },
        RowColumn("label") { $0.label?.databaseValue ?? .null },
        RowColumn("contentIdentifier") { $0.contentIdentifier?.databaseValue ?? .null },
    ]

    /// Read by column name (a row may hold other columns, such as photoId; `mediaType` is
    /// `photos.mediaType`).
    init(row: Row) {
        self.init()
        dateTaken = row["dateTaken"]
        fileModificationDate = row["fileModificationDate"]
        pixelWidth = row["pixelWidth"]
        pixelHeight = row["pixelHeight"]
        cameraMake = row["cameraMake"]
        cameraModel = row["cameraModel"]
        orientation = row["orientation"]
        gpsLatitude = row["gpsLatitude"]
        gpsLongitude = row["gpsLongitude"]
        aperture = row["aperture"]
        shutterSpeed = row["shutterSpeed"]
        iso = row["iso"]
        focalLength = row["focalLength"]
        lensModel = row["lensModel"]
        mediaType = (row["mediaType"] as String?).flatMap(MediaType.init(rawValue:))
        duration = row["duration"]
        videoCodec = row["videoCodec"]
        frameRate = row["frameRate"]
        title = row["title"]
        description = row["description"]
        keywords = (row["keywords"] as String?).flatMap(Self.keywords(column:))
        rating = row["rating"]
        label = row["label"]
        contentIdentifier = row["contentIdentifier"]
    }

    /// Keywords are a JSON array in one column: SQLite's `json_each` searches it.
    static func keywordsColumn(_ keywords: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(keywords)) ?? Data("[]".utf8), as: UTF8.self)
    }

    static func keywords(column text: String) -> [String]? {
        try? JSONDecoder().decode([String].self, from: Data(text.utf8))
    }
}
