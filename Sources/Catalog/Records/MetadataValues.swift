import GRDB

/// A row of `metadata`: the photo metadata vocabulary (the same names as
/// `inspect --json` and the plist exports).
public struct MetadataValues: Sendable, Hashable, Codable {
    public var dateTaken: String?
    public var fileModificationDate: String?
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    public var cameraMake: String?
    public var cameraModel: String?
    public var orientation: Int?
    public var gpsLatitude: Double?
    public var gpsLongitude: Double?
    public var aperture: Double?
    public var shutterSpeed: Double?
    public var iso: Int?
    public var focalLength: Double?
    public var lensModel: String?

    public init() {}
}

// Reads decode by column name (extra columns such as photoId are ignored).
extension MetadataValues: FetchableRecord {}

extension MetadataValues {
    static let columns = [
        "dateTaken", "fileModificationDate", "pixelWidth", "pixelHeight", "cameraMake", "cameraModel",
        "orientation", "gpsLatitude", "gpsLongitude", "aperture", "shutterSpeed", "iso", "focalLength", "lensModel",
    ]

    var databaseArguments: StatementArguments {
        [dateTaken, fileModificationDate, pixelWidth, pixelHeight, cameraMake, cameraModel,
         orientation, gpsLatitude, gpsLongitude, aperture, shutterSpeed, iso, focalLength, lensModel]
    }
}
