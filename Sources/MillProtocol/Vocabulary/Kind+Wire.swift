import PhotomillCore

// The protocol edge of `Kind`: the wire enum is converted here and nowhere else.

extension Kind {
    /// The kind a wire value names; nil for `KIND_UNSPECIFIED` and for values from a newer
    /// protocol revision.
    public init?(_ wire: Photomill_V1_Kind) {
        switch wire {
        case .hash: self = .hash
        case .metadata: self = .metadata
        case .thumbnail: self = .thumbnail
        case .ocr: self = .ocr
        case .unspecified, .UNRECOGNIZED: return nil
        }
    }
}

extension Photomill_V1_Kind {
    /// The known kinds, in `Kind`'s order.
    public static let known: [Photomill_V1_Kind] = Kind.allCases.map(Photomill_V1_Kind.init)

    public init(_ kind: Kind) {
        switch kind {
        case .hash: self = .hash
        case .metadata: self = .metadata
        case .thumbnail: self = .thumbnail
        case .ocr: self = .ocr
        }
    }

    /// "hash", "metadata", "thumbnail", "ocr" (`Kind`'s names); `kind(N)` for values this
    /// code does not know, for messages.
    public var name: String {
        switch self {
        case .unspecified: "unspecified"
        case .UNRECOGNIZED(let value): "kind(\(value))"
        default: Kind(self)!.rawValue
        }
    }
}
