import Foundation

/// A kind of work done on a photo; with the photo, the unit of state, retry and reporting.
/// The raw values are photomill's names for them everywhere: the catalog's `tasks.kind`,
/// the CLI's `--kinds`, `inspect --json` (the wire enum converts at the protocol edge).
public enum Kind: String, CaseIterable, Sendable, Hashable, Codable, Comparable {
    case hash, metadata, thumbnail, ocr

    /// Kinds that decode pixels, and so are refused for images over the pixel limit.
    public var decodesPixels: Bool { self == .thumbnail || self == .ocr }

    public static func < (lhs: Kind, rhs: Kind) -> Bool {
        lhs.order < rhs.order
    }

    private var order: Int {
        switch self {
        case .hash: 0
        case .metadata: 1
        case .thumbnail: 2
        case .ocr: 3
        }
    }

    /// Parses "hash,metadata"; a failure names the first unknown kind.
    public static func parseList(_ text: String) -> Result<Set<Kind>, ParseError> {
        var kinds: Set<Kind> = []
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let kind = Kind(rawValue: name.lowercased()) else { return .failure(ParseError(name: name)) }
            kinds.insert(kind)
        }
        return kinds.isEmpty ? .failure(ParseError(name: text)) : .success(kinds)
    }

    /// The names of `kinds` in kind order, comma-separated: the form `--kinds` takes.
    public static func list(_ kinds: some Sequence<Kind>) -> String {
        kinds.sorted().map(\.rawValue).joined(separator: ",")
    }

    public struct ParseError: Error, CustomStringConvertible {
        public let name: String
        public var description: String {
            "unknown kind '\(name)'; the kinds are \(Kind.allCases.map(\.rawValue).joined(separator: ", "))"
        }
    }
}

/// `tasks.state`: pending → leased → done | failed.
public enum TaskState: String, CaseIterable, Sendable, Hashable, Codable {
    case pending, leased, done, failed
}
