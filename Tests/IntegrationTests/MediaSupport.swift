import Foundation
import Testing

/// Outside tools the media tests make fixtures with and check against: ffmpeg, heif-enc,
/// exiftool and the vips command (scripts/install-deps.sh installs them all).
enum Tool {
    static func isAvailable(_ name: String) -> Bool {
        ProcessInfo.processInfo.environment["PATH", default: "/usr/bin:/bin"].split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }
    }

    static func allAvailable(_ names: String...) -> Bool { names.allSatisfy(isAvailable) }

    /// Runs `arguments` (the tool first), returning its standard output; a non-zero exit throws.
    @discardableResult
    static func run(_ arguments: [String], in directory: URL? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(description: "\(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(String(decoding: errors, as: UTF8.self))")
        }
        return String(decoding: output, as: UTF8.self)
    }

    struct ToolFailure: Error, CustomStringConvertible { let description: String }

    /// Mean absolute difference per sample of two images of the same size, by the vips
    /// command (`subtract`, `abs`, `avg`): 0 for identical pictures, tens for different ones.
    static func meanDifference(_ a: String, _ b: String, in directory: URL) throws -> Double {
        let difference = directory.appendingPathComponent("difference-\(UUID().uuidString).v").path
        let absolute = directory.appendingPathComponent("absolute-\(UUID().uuidString).v").path
        try run(["vips", "subtract", a, b, difference])
        try run(["vips", "abs", difference, absolute])
        return Double(try run(["vips", "avg", absolute]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .infinity
    }

    /// exiftool's values of `file` (`-j -n`), one dictionary.
    static func exiftool(_ file: String, _ tags: [String]) throws -> [String: Any] {
        let output = try run(["exiftool", "-j", "-n"] + tags.map { "-\($0)" } + [file])
        let array = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]]
        return array?.first ?? [:]
    }
}

/// The error classes a processing failure may carry (docs/operations.md).
let processingErrorClasses: Set<String> = ["unreadable", "not-an-image", "unsupported-format", "too-large", "corrupt", "ocr-failed", "timeout"]
