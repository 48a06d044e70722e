import Catalog

/// The content of `metadata/{md5}.plist`: the photo metadata vocabulary (the same names
/// as `inspect --json`), the content hashes and the recognised text. Absent values are
/// left out of the plist. docs/exports.md documents every key.
public struct ExportedPhoto: Codable, Sendable, Hashable {
    public var dateTaken: String?
    public var fileModificationDate: String?
    public var fileSize: Int64?
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
    public var md5: String
    public var sha256: String?
    public var ocrText: String?

    public init(_ record: ExportRecord, stripGPS: Bool) {
        let m = record.metadata ?? MetadataValues()
        dateTaken = m.dateTaken
        fileModificationDate = m.fileModificationDate
        fileSize = record.size
        pixelWidth = m.pixelWidth
        pixelHeight = m.pixelHeight
        cameraMake = m.cameraMake
        cameraModel = m.cameraModel
        orientation = m.orientation
        gpsLatitude = stripGPS ? nil : m.gpsLatitude
        gpsLongitude = stripGPS ? nil : m.gpsLongitude
        aperture = m.aperture
        shutterSpeed = m.shutterSpeed
        iso = m.iso
        focalLength = m.focalLength
        lensModel = m.lensModel
        md5 = record.md5
        sha256 = record.sha256
        ocrText = record.ocrText
    }
}

/// `manifest.plist`: which photo (path) each export belongs to.
public struct ExportManifest: Codable, Sendable {
    public struct Entry: Codable, Sendable, Hashable {
        public var md5: String
        public var path: String
        public var hasThumbnail: Bool
    }
    public var formatVersion = 1
    public var generatedAt: String
    public var gpsStripped: Bool
    public var photos: [Entry]
}
