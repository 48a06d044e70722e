/// Why a kind of work failed for one photo. The class is stable and machine-readable
/// (it is stored in the catalog and drives retries); the message names the file and the cause.
public struct ProcessingError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Class: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The file could not be opened or read (permissions, vanished, I/O error).
        public static let unreadable = Class(rawValue: "unreadable")
        /// The bytes are not an image of any format (empty file, text, …).
        public static let notAnImage = Class(rawValue: "not-an-image")
        /// An image, but of a format this build of libvips cannot decode.
        public static let unsupportedFormat = Class(rawValue: "unsupported-format")
        /// More pixels than the configured limit: refused before decoding.
        public static let tooLarge = Class(rawValue: "too-large")
        /// The image header is readable but the data is truncated or damaged.
        public static let corrupt = Class(rawValue: "corrupt")
        /// The OCR engine could not be started or failed on the image.
        public static let ocrFailed = Class(rawValue: "ocr-failed")
        /// The file's size or modification time differs from what the scan recorded;
        /// the next scan re-queues it.
        public static let changedSinceScan = Class(rawValue: "changed-since-scan")

        /// Whether trying again may succeed. Only I/O trouble is transient; the others
        /// are facts about the file's bytes.
        public var isRetryable: Bool { self == .unreadable || self == .ocrFailed }
        public var description: String { rawValue }
    }

    public let errorClass: Class
    public let message: String

    public init(_ errorClass: Class, _ message: String) {
        self.errorClass = errorClass
        self.message = message
    }

    public var description: String { "\(errorClass): \(message)" }
}
