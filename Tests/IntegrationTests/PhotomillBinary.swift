import Foundation
import Testing

/// The built `photomill` executable, run as a separate process.
enum PhotomillBinary {
    /// Beside the test bundle: SwiftPM builds every product into the same folder.
    static let url: URL = {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = me.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("photomill")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        fatalError("no built photomill beside \(me.path); run `swift build` first")
    }()

    struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    /// `launcher`: a command that runs photomill, given in full (`Unprivileged.launcher`).
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                    launcher: [String] = []) throws -> Outcome {
        let process = Process()
        process.executableURL = launcher.first.map(URL.init(fileURLWithPath:)) ?? url
        process.arguments = Array(launcher.dropFirst()) + arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        // stderr goes to a file so that neither stream can fill a pipe and block the child.
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("photomill-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errData = (try? Data(contentsOf: errURL)) ?? Data()
        return Outcome(status: process.terminationStatus,
                       stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errData, as: UTF8.self))
    }

    /// `inspect --json` output, one decoded object per line.
    static func jsonLines(_ outcome: Outcome) throws -> [[String: Any]] {
        try outcome.lines.map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CocoaError(.coderReadCorrupt)
            }
            return object
        }
    }
}

enum Corpus {
    /// ../shared/corpus beside the checkout, found from this source file's location.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus")

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("manifest.json").path)
    }

    static let skipMessage: Comment = "../shared/corpus is absent (a fresh clone): corpus tests skipped"
}

func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("photomill-it-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A test script (Python) run to its end: its exit status and its standard output and
/// error together, which are also printed, for the test log.
func runScript(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = out
    try process.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    print(text, terminator: "")
    return (process.terminationStatus, text)
}
