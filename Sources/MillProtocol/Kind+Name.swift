/// The kinds' names as photomill spells them everywhere else (`PhotoProcessing.Kind`'s raw
/// values, the catalog, the CLI): a peer maps between the two through these.
extension Photomill_V1_Kind {
    /// The known kinds, in PhotoProcessing's order.
    public static let known: [Photomill_V1_Kind] = [.hash, .metadata, .thumbnail, .ocr]

    /// "hash", "metadata", "thumbnail", "ocr"; `kind(N)` for values this code does not know.
    public var name: String {
        switch self {
        case .hash: "hash"
        case .metadata: "metadata"
        case .thumbnail: "thumbnail"
        case .ocr: "ocr"
        case .unspecified: "unspecified"
        case .UNRECOGNIZED(let value): "kind(\(value))"
        }
    }

    /// The wire kind for a name; nil for anything but the four known names.
    public init?(name: String) {
        guard let kind = Self.known.first(where: { $0.name == name }) else { return nil }
        self = kind
    }
}
