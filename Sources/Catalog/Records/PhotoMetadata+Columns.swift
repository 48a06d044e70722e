internal import GRDB
import PhotomillCore

/// `PhotoMetadata` as the columns of table `metadata` (the same names as its properties).
extension PhotoMetadata {
    static let columns = [
        "dateTaken", "fileModificationDate", "pixelWidth", "pixelHeight", "cameraMake", "cameraModel",
        "orientation", "gpsLatitude", "gpsLongitude", "aperture", "shutterSpeed", "iso", "focalLength", "lensModel",
    ]

    var databaseArguments: StatementArguments {
        [dateTaken, fileModificationDate, pixelWidth, pixelHeight, cameraMake, cameraModel,
         orientation, gpsLatitude, gpsLongitude, aperture, shutterSpeed, iso, focalLength, lensModel]
    }

    /// Read by column name (a row may hold other columns, such as photoId).
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
    }
}
