import Foundation
import PhotomillTestSupport
import Testing

/// `photomill inspect --json` on the real photos of ../shared/corpus against the
/// corpus manifest, whose values come from exiftool.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct CorpusTests {
    struct Manifest: Decodable {
        struct File: Decodable {
            let path: String
            let size: Int
            let md5: String
            let sha256: String
            let kind: String
            let exiftool: [String: ExifValue]
        }
        let files: [File]
    }

    enum ExifValue: Decodable {
        case number(Double), text(String)
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) { self = .number(number) }
            else if let list = try? container.decode([String].self) { self = .text(list.joined(separator: ", ")) }   // keywords
            else { self = .text(try container.decode(String.self)) }
        }
    }

    static let fieldNames: [String: String] = [
        "DateTimeOriginal": "dateTaken", "Make": "cameraMake", "Model": "cameraModel",
        "Orientation": "orientation", "GPSLatitude": "gpsLatitude", "GPSLongitude": "gpsLongitude",
        "FNumber": "aperture", "ExposureTime": "shutterSpeed", "ISO": "iso", "FocalLength": "focalLength",
        "ImageWidth": "pixelWidth", "ImageHeight": "pixelHeight",
    ]

    /// Whether our value agrees with exiftool's: GPS within 1e-5°, numbers within 0.5 %,
    /// dates to the second, strings exactly. exiftool reports Orientation 1 for files
    /// with no orientation tag, which we leave absent.
    static func agrees(_ field: String, exiftool: ExifValue, ours: Any?) -> Bool {
        switch exiftool {
        case .text(let expected):
            guard let ours = ours as? String else { return false }
            if field == "DateTimeOriginal" {
                let iso = expected.replacingOccurrences(of: " ", with: "T")
                    .replacingOccurrences(of: ":", with: "-", options: [], range: iso8601DateRange(expected))
                return ours.prefix(19) == iso.prefix(19)
            }
            return ours == expected.trimmingCharacters(in: .whitespaces)
        case .number(let expected):
            if field == "Orientation" && expected == 1 && ours == nil { return true }
            guard let ours = (ours as? NSNumber)?.doubleValue else { return false }
            if field.hasPrefix("GPS") { return abs(ours - expected) <= 1e-5 }
            return abs(ours - expected) <= abs(expected) * 0.005
        }
    }

    private static func iso8601DateRange(_ text: String) -> Range<String.Index> {
        text.startIndex..<(text.index(text.startIndex, offsetBy: 10, limitedBy: text.endIndex) ?? text.endIndex)
    }

    @Test func inspectAgreesWithExiftool() throws {
        let manifest = try JSONDecoder().decode(
            Manifest.self, from: Data(contentsOf: Corpus.root.appendingPathComponent("manifest.json")))
        let photos = Corpus.root.appendingPathComponent("photos")
        let names = manifest.files.map { String($0.path.dropFirst("photos/".count)) }
        let outcome = try PhotomillBinary.run(["inspect", "--json", "--kinds", "hash,metadata,thumbnail"] + names, in: photos)
        // Some files are broken on purpose, so the run as a whole reports failure.
        #expect(outcome.status == 1)
        let objects = try PhotomillBinary.jsonLines(outcome)
        try #require(objects.count == manifest.files.count)

        var compared = 0, agreed = 0
        var disagreements: [String] = []
        for (file, object) in zip(manifest.files, objects) {
            let name = String(file.path.dropFirst("photos/".count))
            #expect(object["path"] as? String == name)
            #expect(object["md5"] as? String == file.md5, "\(name)")
            #expect(object["sha256"] as? String == file.sha256, "\(name)")
            #expect(object["fileSize"] as? Int == file.size, "\(name)")
            let errors = object["errors"] as? [String: [String: String]] ?? [:]

            if file.kind == "broken" {
                #expect(!errors.isEmpty, "\(name) should fail some kind")
                for (kind, failure) in errors {
                    #expect(["not-an-image", "corrupt", "too-large", "unsupported-format"].contains(failure["class"] ?? ""), "\(name) \(kind)")
                    #expect(failure["message"]?.contains(name) == true)
                }
                continue
            }
            #expect(errors.isEmpty, "\(name): \(errors)")

            let metadata = object["metadata"] as? [String: Any] ?? [:]
            for (field, expected) in file.exiftool {
                guard let ours = Self.fieldNames[field] else { continue }
                compared += 1
                if Self.agrees(field, exiftool: expected, ours: metadata[ours]) { agreed += 1 }
                else { disagreements.append("\(name) \(field): exiftool \(expected), ours \(metadata[ours] ?? "absent")") }
            }

            // Longest side 256 (or the image's own if smaller), turned for orientations 5–8.
            let thumbnail = try #require(object["thumbnail"] as? [String: Any], "\(name)")
            let width = try #require(metadata["pixelWidth"] as? Int), height = try #require(metadata["pixelHeight"] as? Int)
            let turned = (5...8).contains(metadata["orientation"] as? Int ?? 1)
            let (displayWidth, displayHeight) = turned ? (height, width) : (width, height)
            let thumbWidth = thumbnail["width"] as? Int ?? 0, thumbHeight = thumbnail["height"] as? Int ?? 0
            #expect(max(thumbWidth, thumbHeight) == min(256, max(displayWidth, displayHeight)), "\(name)")
            #expect((thumbWidth >= thumbHeight) == (displayWidth >= displayHeight), "\(name) orientation")
        }
        let rate = Double(agreed) / Double(compared)
        #expect(rate >= 0.99, "agreement \(agreed)/\(compared); \(disagreements.joined(separator: "; "))")
        print("corpus: \(agreed)/\(compared) exiftool fields agree (\(String(format: "%.1f", rate * 100)) %); differing: \(disagreements)")
    }
}
