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

    public init() {}
}
