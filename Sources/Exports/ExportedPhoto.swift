import Catalog
import PhotomillCore

/// The content of `metadata/{md5}.plist`: the photo metadata vocabulary (the same names
/// as `inspect --json`), the file size, the content hashes and the recognised text, in
/// one flat dictionary. Absent values are left out. docs/exports.md documents every key.
public struct ExportedPhoto: Encodable, Sendable, Hashable {
    public var metadata: PhotoMetadata
    public var fileSize: Int64
    public var md5: String
    public var sha256: String?
    public var ocrText: String?
    public var livePhoto: String?
    /// The similarity kind's hash, 16 lowercase hex digits.
    public var perceptualHash: String?

    public init(_ record: ExportRecord, stripGPS: Bool) {
        metadata = record.metadata ?? PhotoMetadata()
        if stripGPS {
            metadata.gpsLatitude = nil
            metadata.gpsLongitude = nil
        }
        fileSize = record.size
        md5 = record.md5
        sha256 = record.sha256
        ocrText = record.ocrText
        livePhoto = record.livePhoto
        perceptualHash = record.perceptualHash?.hex
    }

    private enum CodingKeys: String, CodingKey { case fileSize, md5, sha256, ocrText, livePhoto, perceptualHash }

    public func encode(to encoder: any Encoder) throws {
        // The metadata's keys and these share one dictionary.
        try metadata.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fileSize, forKey: .fileSize)
        try container.encode(md5, forKey: .md5)
        try container.encodeIfPresent(sha256, forKey: .sha256)
        try container.encodeIfPresent(ocrText, forKey: .ocrText)
        try container.encodeIfPresent(livePhoto, forKey: .livePhoto)
        try container.encodeIfPresent(perceptualHash, forKey: .perceptualHash)
    }
}

/// `manifest.plist`: which photo (path) each export belongs to.
public struct ExportManifest: Codable, Sendable {
    public struct Entry: Codable, Sendable, Hashable {
        public var md5: String
        public var path: String
        public var hasThumbnail: Bool
    }
    /// 2 since the second round: mediaType, duration, videoCodec, frameRate, title,
    /// description, keywords, rating, label, contentIdentifier, livePhoto; 3 since issue 28:
    /// perceptualHash (docs/exports.md).
    public var formatVersion = 3
    public var generatedAt: String
    public var gpsStripped: Bool
    public var photos: [Entry]
}
