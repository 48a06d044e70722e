import Foundation
import PhotomillCore

/// Everything computed for one photo; each kind succeeded (its value is set) or failed
/// (an entry in `errors`), independently of the others.
public struct PhotoResult: Sendable {
    public let path: String
    public var fileSize: Int?
    public var hashes: ContentHashes?
    public var metadata: PhotoMetadata?
    public var thumbnail: Thumbnail?
    public var text: RecognizedText?
    public var errors: [Kind: ProcessingError] = [:]

    public init(path: String) { self.path = path }

    public var succeeded: Bool { errors.isEmpty }
}
