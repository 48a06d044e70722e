import Foundation
import PhotomillCore
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What photomill takes from an XMP packet (a sidecar, or the file's own): what a user
/// edits in Lightroom, darktable or digiKam, and the date and place, which count only
/// where the file itself has none (`PhotoMetadata.merge`).
public struct XMPFields: Sendable, Hashable {
    /// `dc:title` (the `x-default` alternative, else the first).
    public var title: String?
    /// `dc:description`, likewise.
    public var description: String?
    /// `dc:subject`, in order, without repeats.
    public var keywords: [String]?
    /// `xmp:Rating`: −1 (rejected) to 5.
    public var rating: Int?
    /// `xmp:Label` ("Red", "Select").
    public var label: String?
    /// `exif:DateTimeOriginal`, else `photoshop:DateCreated`, else `xmp:CreateDate`, as
    /// `PhotoMetadata.dateTaken` writes dates.
    public var dateTaken: String?
    /// `exif:GPSLatitude` / `exif:GPSLongitude` ("34,47.847N"), signed decimal degrees.
    public var gpsLatitude: Double?
    public var gpsLongitude: Double?

    public init() {}
}

/// Why an XMP packet could not be read.
public struct XMPError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// Reads `XMPFields` from an XMP packet with Foundation's XML parser (libxml2): external
/// entities are never resolved, and the caller bounds the size (16 MiB for a sidecar).
/// Properties are matched by namespace URI, not by prefix, in both RDF forms: as
/// attributes of `rdf:Description` and as elements (with `rdf:Alt`/`Bag`/`Seq` lists).
public enum XMPReader {
    public static func read(_ bytes: Data) throws(XMPError) -> XMPFields {
        let collector = Collector()
        let parser = XMLParser(data: bytes)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = collector
        // Foundation's parser on Linux can return true after a fatal error (a mismatched
        // tag): its error is what counts.
        guard parser.parse(), parser.parserError == nil else {
            let code = parser.parserError.map { ($0 as NSError).code } ?? 0
            throw XMPError(description: "not well-formed XML: libxml2 error \(code) at line \(parser.lineNumber)")
        }
        guard collector.sawRDF else { throw XMPError(description: "no rdf:RDF element: not an XMP packet") }
        return collector.fields()
    }
}

/// The properties photomill reads, by namespace URI and local name.
private enum Property: Hashable {
    case title, description, subject, rating, label, createDate, dateTimeOriginal, dateCreated, latitude, longitude

    static let namespaces: [String: [String: Property]] = [
        "http://purl.org/dc/elements/1.1/": ["title": .title, "description": .description, "subject": .subject],
        "http://ns.adobe.com/xap/1.0/": ["Rating": .rating, "Label": .label, "CreateDate": .createDate],
        "http://ns.adobe.com/exif/1.0/": [
            "DateTimeOriginal": .dateTimeOriginal, "GPSLatitude": .latitude, "GPSLongitude": .longitude,
        ],
        "http://ns.adobe.com/photoshop/1.0/": ["DateCreated": .dateCreated],
    ]

    static func named(_ local: String, in namespace: String?) -> Property? {
        namespace.flatMap { namespaces[$0]?[local] }
    }
}

private let rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

/// The parser's delegate: keeps the values of the properties of interest, each as a text
/// or a list of (language, text) items.
private final class Collector: NSObject, XMLParserDelegate {
    private(set) var sawRDF = false
    private var values: [Property: [(language: String?, text: String)]] = [:]
    /// Prefix → namespace URI, innermost last.
    private var prefixes: [String: [String]] = [:]
    /// The property element being read, its depth, and its items so far.
    private var current: (property: Property, depth: Int, items: [(language: String?, text: String)], text: String)?
    private var depth = 0
    private var itemLanguage: String?
    private var inItem = false

    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        prefixes[prefix, default: []].append(namespaceURI)
    }

    func parser(_ parser: XMLParser, didEndMappingPrefix prefix: String) {
        _ = prefixes[prefix]?.popLast()
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        depth += 1
        let local = Self.localName(elementName)
        if namespaceURI == rdfNamespace && local == "RDF" { sawRDF = true }
        if var reading = current {
            if namespaceURI == rdfNamespace && local == "li" {
                inItem = true
                itemLanguage = attributes["xml:lang"] ?? attributes["lang"]
                reading.text = ""
                current = reading
            }
            return
        }
        if namespaceURI == rdfNamespace && local == "Description" {
            // The attribute form: <rdf:Description xmp:Rating="3" …>.
            for (name, value) in attributes {
                guard let colon = name.firstIndex(of: ":") else { continue }
                let prefix = String(name[..<colon]), attribute = String(name[name.index(after: colon)...])
                if let property = Property.named(attribute, in: prefixes[prefix]?.last ?? attributes["xmlns:" + prefix]) {
                    values[property] = [(nil, value)]
                }
            }
            return
        }
        if let property = Property.named(local, in: namespaceURI) {
            current = (property, depth, [], "")
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        current?.text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        defer { depth -= 1 }
        guard var reading = current else { return }
        if inItem && namespaceURI == rdfNamespace && Self.localName(elementName) == "li" {
            reading.items.append((itemLanguage, reading.text))
            reading.text = ""
            inItem = false
            current = reading
        } else if depth == reading.depth {
            values[reading.property] = reading.items.isEmpty ? [(nil, reading.text)] : reading.items
            current = nil
        }
    }

    private static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    // MARK: - Values

    func fields() -> XMPFields {
        var fields = XMPFields()
        fields.title = alternative(.title)
        fields.description = alternative(.description)
        var seen: Set<String> = []
        let keywords = texts(.subject).filter { seen.insert($0).inserted }
        fields.keywords = keywords.isEmpty ? nil : keywords
        if let text = texts(.rating).first, let value = Double(text), value.isFinite,
           let rating = Int(exactly: value.rounded()), (-1...5).contains(rating) {
            fields.rating = rating
        }
        fields.label = texts(.label).first
        fields.dateTaken = [Property.dateTimeOriginal, .dateCreated, .createDate].lazy
            .compactMap { self.texts($0).first.flatMap(XMPDate.dateTaken) }.first
        fields.gpsLatitude = texts(.latitude).first.flatMap { XMPCoordinate.degrees($0, positive: "N", negative: "S", limit: 90) }
        fields.gpsLongitude = texts(.longitude).first.flatMap { XMPCoordinate.degrees($0, positive: "E", negative: "W", limit: 180) }
        if fields.gpsLatitude == nil || fields.gpsLongitude == nil {
            fields.gpsLatitude = nil
            fields.gpsLongitude = nil
        }
        return fields
    }

    /// The property's values, trimmed, empty ones dropped.
    private func texts(_ property: Property) -> [String] {
        (values[property] ?? []).map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// A language alternative: `x-default`, else the first.
    private func alternative(_ property: Property) -> String? {
        let items = (values[property] ?? []).filter { !$0.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        let chosen = items.first { $0.language == "x-default" } ?? items.first
        return chosen?.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// XMP dates (ISO 8601 with optional seconds, fractions and zone) as `dateTaken` writes
/// them: `2019-06-06T07:29:51`, with `+02:00` or `Z` when the packet has a zone. darktable
/// writes EXIF's form ("2019:06:06 07:29:51"), which is taken too. A date without a time
/// says too little to be a moment, and is dropped.
enum XMPDate {
    static func dateTaken(_ text: String) -> String? {
        let pattern = #/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?$/#
        if text.wholeMatch(of: #/\d{4}:\d{2}:\d{2} \d{2}:\d{2}:\d{2}/#) != nil { return ExifDate.iso8601(fromExif: text) }
        guard let match = text.wholeMatch(of: pattern),
              let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
              let hour = Int(match.4), let minute = Int(match.5) else { return nil }
        let second = match.6.flatMap { Int($0) } ?? 0
        guard (1800...2999).contains(year), (1...12).contains(month), (1...31).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        let local = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second)
        return local + (match.7.map(String.init) ?? "")
    }
}

/// XMP's GPS coordinates: "DDD,MM.mmmk" or "DDD,MM,SSk" (k = N/S/E/W), XMP spec part 2.
enum XMPCoordinate {
    static func degrees(_ text: String, positive: Character, negative: Character, limit: Double) -> Double? {
        guard let reference = text.last?.uppercased().first, reference == positive || reference == negative else { return nil }
        let parts = text.dropLast().split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 && $0!.isFinite }) else { return nil }
        let values = parts.map { $0! }
        guard values[1] < 60, values.count < 3 || values[2] < 60 else { return nil }
        let degrees = values[0] + values[1] / 60 + (values.count == 3 ? values[2] / 3600 : 0)
        guard degrees <= limit else { return nil }
        return reference == negative ? -degrees : degrees
    }
}

extension PhotoMetadata {
    /// Takes what an XMP packet adds. Title, description, keywords, rating and label:
    /// a sidecar's (`replacing: true`) win over what is there, as the edits of the user's
    /// editor; the file's own XMP only fills gaps. Date and GPS only ever fill gaps: the
    /// camera's EXIF is the better witness.
    public mutating func merge(_ xmp: XMPFields, replacing: Bool) {
        func take<Value>(_ field: WritableKeyPath<PhotoMetadata, Value?>, _ value: Value?) {
            guard let value else { return }
            if replacing || self[keyPath: field] == nil { self[keyPath: field] = value }
        }
        take(\.title, xmp.title)
        take(\.description, xmp.description)
        take(\.keywords, xmp.keywords)
        take(\.rating, xmp.rating)
        take(\.label, xmp.label)
        if dateTaken == nil { dateTaken = xmp.dateTaken }
        if gpsLatitude == nil || gpsLongitude == nil, let latitude = xmp.gpsLatitude, let longitude = xmp.gpsLongitude {
            gpsLatitude = latitude
            gpsLongitude = longitude
        }
    }
}
