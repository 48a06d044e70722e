/// A JPEG thumbnail, upright, sRGB, without metadata.
public struct Thumbnail: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public let jpeg: [UInt8]

    public init(width: Int, height: Int, jpeg: [UInt8]) {
        self.width = width
        self.height = height
        self.jpeg = jpeg
    }
}
