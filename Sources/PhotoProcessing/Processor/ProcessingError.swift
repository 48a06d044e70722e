import PhotomillCore

/// Why a kind of work failed for one photo: the class (stable, machine-readable; stored in
/// the catalog, it drives retries) and a message that names the file and the cause.
public struct ProcessingError: Error, Sendable, Hashable, CustomStringConvertible {
    public let errorClass: ErrorClass
    public let message: String

    public init(_ errorClass: ErrorClass, _ message: String) {
        self.errorClass = errorClass
        self.message = message
    }

    public var description: String { "\(errorClass): \(message)" }
}
