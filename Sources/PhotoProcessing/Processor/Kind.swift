import Foundation

/// A kind of work done on a photo; with the photo, the unit of state, retry and reporting.
public enum Kind: String, CaseIterable, Sendable, Hashable, Codable, Comparable {
    case hash, metadata, thumbnail, ocr

    /// Kinds that decode pixels, and so are refused for images over the pixel limit.
    public var decodesPixels: Bool { self == .thumbnail || self == .ocr }

    public static func < (lhs: Kind, rhs: Kind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Parses "hash,metadata"; nil names the first unknown kind.
    public static func parseList(_ text: String) -> Result<Set<Kind>, ParseError> {
        var kinds: Set<Kind> = []
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let kind = Kind(rawValue: name.lowercased()) else { return .failure(ParseError(name: name)) }
            kinds.insert(kind)
        }
        return kinds.isEmpty ? .failure(ParseError(name: text)) : .success(kinds)
    }

    public struct ParseError: Error, CustomStringConvertible {
        public let name: String
        public var description: String {
            "unknown kind '\(name)'; the kinds are \(Kind.allCases.map(\.rawValue).joined(separator: ", "))"
        }
    }
}
