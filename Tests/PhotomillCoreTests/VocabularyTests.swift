import Foundation
import PhotomillCore
import Testing

@Suite("Vocabulary")
struct VocabularyTests {
    /// The names docs/processing.md and docs/catalog.md give the classes, typed out here
    /// rather than taken from the code: the catalog stores them, so they never change.
    @Test("error classes keep their stored names, and an unknown name survives")
    func errorClassNames() throws {
        let documented = [
            "unreadable", "not-an-image", "unsupported-format", "too-large", "corrupt", "ocr-failed",
            "changed-since-scan", "timeout", "worker-crashed", "interrupted", "protocol", "shutting-down",
        ]
        #expect(ErrorClass.known.map(\.rawValue) == documented)
        for name in documented { #expect(ErrorClass(rawValue: name).rawValue == name) }
        #expect(ErrorClass(rawValue: "deadline-exceeded") == .other("deadline-exceeded"))
        #expect(ErrorClass(rawValue: "corrupt") == .corrupt)
        // Only I/O trouble is worth another attempt (docs/processing.md).
        #expect(ErrorClass.known.filter(\.isRetryable) == [.unreadable, .ocrFailed])
        let json = try JSONEncoder().encode([ErrorClass.notAnImage, .other("foreign-class")])
        #expect(String(decoding: json, as: UTF8.self) == #"["not-an-image","foreign-class"]"#)
        #expect(try JSONDecoder().decode([ErrorClass].self, from: json) == [.notAnImage, .other("foreign-class")])
    }

    @Test("kinds parse from --kinds lists and sort in processing order")
    func kinds() {
        #expect((try? Kind.parseList(" OCR, hash ").get()) == [.ocr, .hash])
        #expect(Kind.list([.ocr, .thumbnail, .hash]) == "hash,thumbnail,ocr")
        guard case .failure(let error) = Kind.parseList("hash,exif") else {
            Issue.record("an unknown kind was accepted")
            return
        }
        #expect(error.description == "unknown kind 'exif'; the kinds are hash, metadata, thumbnail, ocr")
        #expect(Kind.allCases.sorted() == [.hash, .metadata, .thumbnail, .ocr])
        #expect(Kind.allCases.filter(\.decodesPixels) == [.thumbnail, .ocr])
    }

    /// docs/catalog.md's examples of recipes.
    @Test("recipes name the code version and the parameters that shape each kind")
    func recipes() {
        var parameters = ProcessingParameters()
        parameters.thumbnailSize = 320
        parameters.ocrLanguage = "eng+deu"
        #expect(parameters.recipe(for: .hash) == "hash/1")
        #expect(parameters.recipe(for: .metadata) == "metadata/2")
        #expect(parameters.recipe(for: .thumbnail) == "thumbnail/2 size=320 q=80")
        #expect(parameters.recipe(for: .ocr) == "ocr/2 lang=eng+deu side=4096 min=80")
        #expect(parameters.recipes[.thumbnail] == "thumbnail/2 size=320 q=80")
    }

    @Test("a path lies under a root component-wise", arguments: [
        ("/photos/a.jpg", "/photos", true), ("/photos/a.jpg", "/photos/", true), ("/photos", "/photos", true),
        ("/photos2/a.jpg", "/photos", false), ("/phot", "/photos", false), ("/any/where.jpg", "/", true),
    ])
    func pathUnderRoot(path: String, root: String, under: Bool) {
        #expect(path.isPath(under: root) == under)
    }

    @Test("a path prefix is replaced only on a component boundary")
    func pathPrefix() {
        #expect("/volume1/photos/2019/a.jpg".replacingPathPrefix("/volume1/photos", with: "/mnt/photos") == "/mnt/photos/2019/a.jpg")
        #expect("/volume1/photos".replacingPathPrefix("/volume1/photos", with: "/mnt/photos") == "/mnt/photos")
        #expect("/volume1/photos2/a.jpg".replacingPathPrefix("/volume1/photos", with: "/mnt/photos") == nil)
    }

    /// Compared with GNU stat's own reading of the same file (`%s`, `%Y` and `%y`).
    @Test("a file's stamp is its size and nanosecond mtime, as stat(1) reads them")
    func fileStamp() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stamp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(repeating: 7, count: 1234).write(to: url)
        let touch = Process()
        touch.executableURL = URL(fileURLWithPath: "/usr/bin/touch")
        touch.arguments = ["-d", "2019-07-14 18:03:22.123456789 UTC", url.path]
        try touch.run()
        touch.waitUntilExit()
        let stamp = try FileStamp.of(url.path)
        #expect(stamp == FileStamp(size: 1234, mtimeNs: 1_563_127_402_123_456_789))
        #expect(stamp.changedMessage(path: "/p/a.jpg", now: FileStamp(size: 99, mtimeNs: 0))
            == "/p/a.jpg: changed since it was scanned (size 1234 → 99); it will be processed again at the next scan")
        #expect(throws: FileStampError.self) { try FileStamp.of(url.path + ".missing") }
    }
}
