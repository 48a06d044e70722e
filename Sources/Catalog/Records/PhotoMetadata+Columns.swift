import Foundation
internal import GRDB
import PhotomillCore

/// `PhotoMetadata` as the columns of table `metadata` (the same names as its properties),
/// but for `mediaType`, which the scan keeps in `photos` (the worker recognises the same
/// bytes the same way) and readers select from there.
extension PhotoMetadata {
    static let columns = [
        "dateTaken", "fileModificationDate", "pixelWidth", "pixelHeight", "cameraMake", "cameraModel",
        "orientation", "gpsLatitude", "gpsLongitude", "aperture", "shutterSpeed", "iso", "focalLength", "lensModel",
        "duration", "videoCodec", "frameRate", "title", "description", "keywords", "rating", "label",
        "contentIdentifier",
    ]

    /// The values of `columns`, in order.
    var databaseValues: [DatabaseValue] {
        let values: [(any DatabaseValueConvertible)?] = [
            dateTaken, fileModificationDate, pixelWidth, pixelHeight, cameraMake, cameraModel,
            orientation, gpsLatitude, gpsLongitude, aperture, shutterSpeed, iso, focalLength, lensModel,
            duration, videoCodec, frameRate, title, description, keywords.map(Self.keywordsColumn), rating, label,
            contentIdentifier,
        ]
        return values.map { $0?.databaseValue ?? .null }
    }

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
