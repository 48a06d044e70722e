//===----------------------------------------------------------------------===//
//
// This source file is part of the photomill open source project
//
// Copyright (c) 2026 the photomill authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import PhotomillCore

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

/// Reads `XMPFields` from an XMP packet with libxml2's reader (`XMLReader`): external
/// entities are never resolved, a packet that declares entities (a DOCTYPE) is refused
/// rather than read in part, and the caller bounds the size (16 MiB for a sidecar); the time
/// is linear in the packet. Properties are matched by namespace URI, not by prefix, in both
/// RDF forms: as attributes of `rdf:Description` and as elements (with `rdf:Alt`/`Bag`/`Seq`
/// lists).
public enum XMPReader {
    public static func read(_ bytes: Data) throws(XMPError) -> XMPFields {
        var collector = Collector()
        do {
            let reader = try XMLReader(bytes)
            while collector.refusal == nil, try reader.next() {
                collector.take(reader)
            }
        } catch {
            throw XMPError(description: "not well-formed XML: \(error.message) (line \(error.line))")
        }
        if let refusal = collector.refusal { throw XMPError(description: refusal) }
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

private let rdfNamespace: StaticString = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

/// Keeps the values of the properties of interest, node by node, each as a text or a list
/// of (language, text) items. Linear in the packet: the property being read lives in
/// stored properties of its own, appended to in place. (It was a tuple copied out of an
/// optional and written back at each item, so every `rdf:li` copied the items before it:
/// 40,000 keywords took 23 s, 16 MiB more than ten minutes.)
private struct Collector {
    private(set) var sawRDF = false
    /// Why the packet is refused, once the reader met what photomill does not read in part.
    private(set) var refusal: String?
    private var values: [Property: [(language: String?, text: String)]] = [:]
    /// The property element being read and its depth, its items so far, and the text of
    /// the item (or of the property) being read.
    private var property: (name: Property, depth: Int)?
    private var items: [(language: String?, text: String)] = []
    private var text = ""
    private var itemLanguage: String?
    private var inItem = false

    mutating func take(_ reader: XMLReader) {
        switch reader.kind {
        case .documentType:
            // Foundation's parser dropped the text of an entity the packet declared itself (a
            // title "Boats of &who; at dawn" came back "Boats of  at dawn"); no XMP writer
            // declares one. The five predefined entities and character references read.
            refusal =
                refusal
                ?? "it declares a DOCTYPE (entities or a DTD), which XMP packets do not use; refused rather than read in part"
        case .entityReference:
            refusal =
                refusal
                ?? "it refers to an entity (&\(reader.localName);) that XMP does not define; refused rather than read in part"
        case .element:
            start(reader)
        case .endElement:
            end(depth: reader.depth, isItem: reader.isNamed("li", in: rdfNamespace))
        case .text, .whitespace:
            if property != nil { text += reader.value }
        case .other:
            break
        }
    }

    private mutating func start(_ reader: XMLReader) {
        let depth = reader.depth
        if property != nil {
            // Inside a property: only its items matter (a keyword list is nearly all of a
            // large packet, so no name is copied out of libxml2 here).
            if reader.isNamed("li", in: rdfNamespace) {
                inItem = true
                itemLanguage = reader.language
                text = ""
                if reader.isEmptyElement { end(depth: depth, isItem: true) }
            }
            return
        }
        if reader.isNamed("RDF", in: rdfNamespace) { sawRDF = true }
        if reader.isNamed("Description", in: rdfNamespace) {
            // The attribute form: <rdf:Description xmp:Rating="3" …>.
            for attribute in reader.attributes {
                if let property = Property.named(attribute.localName, in: attribute.namespaceURI) {
                    values[property] = [(nil, attribute.value)]
                }
            }
            return
        }
        if let named = Property.named(reader.localName, in: reader.namespaceURI) {
            property = (named, depth)
            items = []
            text = ""
            if reader.isEmptyElement { end(depth: depth, isItem: false) }
        }
    }

    private mutating func end(depth: Int, isItem: Bool) {
        guard let reading = property else { return }
        if inItem && isItem {
            items.append((itemLanguage, text))
            text = ""
            inItem = false
        } else if depth == reading.depth {
            values[reading.name] = items.isEmpty ? [(nil, text)] : items
            property = nil
            items = []
            text = ""
        }
    }

    // MARK: - Values

    func fields() -> XMPFields {
        var fields = XMPFields()
        fields.title = alternative(.title)
        fields.description = alternative(.description)
        let subjects = texts(.subject)
        var seen = Set<String>(minimumCapacity: subjects.count)
        let keywords = subjects.filter { seen.insert($0).inserted }
        fields.keywords = keywords.isEmpty ? nil : keywords
        if let text = texts(.rating).first, let value = Double(text), value.isFinite,
            let rating = Int(exactly: value.rounded()), (-1...5).contains(rating)
        {
            fields.rating = rating
        }
        fields.label = texts(.label).first
        fields.dateTaken =
            [Property.dateTimeOriginal, .dateCreated, .createDate].lazy
            .compactMap { self.texts($0).first.flatMap(XMPDate.dateTaken) }.first
        fields.gpsLatitude = texts(.latitude).first.flatMap {
            XMPCoordinate.degrees($0, positive: "N", negative: "S", limit: 90)
        }
        fields.gpsLongitude = texts(.longitude).first.flatMap {
            XMPCoordinate.degrees($0, positive: "E", negative: "W", limit: 180)
        }
        if fields.gpsLatitude == nil || fields.gpsLongitude == nil {
            fields.gpsLatitude = nil
            fields.gpsLongitude = nil
        }
        return fields
    }

    /// The property's values, trimmed, empty ones dropped.
    private func texts(_ property: Property) -> [String] {
        (values[property] ?? []).map { $0.text.trimmedOfWhiteSpace }.filter { !$0.isEmpty }
    }

    /// A language alternative: `x-default`, else the first.
    private func alternative(_ property: Property) -> String? {
        let items = (values[property] ?? []).map { (language: $0.language, text: $0.text.trimmedOfWhiteSpace) }.filter {
            !$0.text.isEmpty
        }
        return (items.first { $0.language == "x-default" } ?? items.first)?.text
    }
}

extension String {
    /// Without the white space at either end, as Foundation's `.whitespacesAndNewlines` has
    /// it (Unicode's White_Space, and the zero-width space and byte-order mark, which a
    /// keyword pasted from elsewhere carries), at a small part of its cost: Foundation
    /// bridges through NSString (half a million keywords took 0.5 s).
    fileprivate var trimmedOfWhiteSpace: String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isWhitespace || scalar.value == 0x200B || scalar.value == 0xFEFF
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else {
            return ""
        }
        return first == scalars.startIndex && last == scalars.index(before: scalars.endIndex)
            ? self : String(scalars[first...last])
    }
}

/// XMP dates (ISO 8601 with optional seconds, fractions and zone) as `dateTaken` writes
/// them: `2019-06-06T07:29:51`, with `+02:00` or `Z` when the packet has a zone. darktable
/// writes EXIF's form ("2019:06:06 07:29:51"), which is taken too. A date without a time
/// says too little to be a moment, and is dropped.
enum XMPDate {
    static func dateTaken(_ text: String) -> String? {
        let pattern = #/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?$/#
        if text.wholeMatch(of: #/\d{4}:\d{2}:\d{2} \d{2}:\d{2}:\d{2}/#) != nil {
            return ExifDate.iso8601(fromExif: text)
        }
        guard let match = text.wholeMatch(of: pattern),
            let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
            let hour = Int(match.4), let minute = Int(match.5)
        else { return nil }
        let second = match.6.flatMap { Int($0) } ?? 0
        guard (1800...2999).contains(year), (1...12).contains(month), (1...31).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let local = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second)
        return local + (match.7.map(String.init) ?? "")
    }
}

/// XMP's GPS coordinates: "DDD,MM.mmmk" or "DDD,MM,SSk" (k = N/S/E/W), XMP spec part 2.
enum XMPCoordinate {
    static func degrees(_ text: String, positive: Character, negative: Character, limit: Double) -> Double? {
        guard let reference = text.last?.uppercased().first, reference == positive || reference == negative else {
            return nil
        }
        let parts = text.dropLast().split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 && $0!.isFinite }) else {
            return nil
        }
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
