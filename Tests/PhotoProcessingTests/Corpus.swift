import Foundation
import Testing

/// ../shared/corpus beside the checkout, found from this source file's location (absent
/// in a user's fresh clone: the tests that need it skip with `skipMessage`).
enum Corpus {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus")

    static let formats = root.appendingPathComponent("formats")

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("manifest-formats.json").path)
    }

    static let skipMessage: Comment = "../shared/corpus is absent (a fresh clone): corpus tests skipped"
}
