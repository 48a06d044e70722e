/// A catalog that cannot be used: missing, unreadable, read-only, or of a newer schema.
public struct CatalogError: Error, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let missing = Code(rawValue: "missing")
        public static let newerSchema = Code(rawValue: "newer-schema")
        public static let unusable = Code(rawValue: "unusable")
    }

    public let code: Code
    public let path: String
    public let message: String
    public let underlying: (any Error)?

    public init(_ code: Code, path: String, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.path = path
        self.message = message
        self.underlying = underlying
    }

    public var description: String { "catalog \(path): \(message)" }
}
