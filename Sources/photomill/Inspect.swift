import ArgumentParser
import Exports
import Foundation
import PhotoProcessing
import PhotomillCore

extension Photomill {
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Process files locally (no cluster) and print what was found.",
            discussion: """
                Files are processed in parallel on all cores. Exit status: 0 when every kind of \
                every file succeeded, 1 when some failed (the other files are still processed), \
                64 on usage errors.
                """)

        @OptionGroup var processing: ProcessingFlags

        @Option(help: "Write each thumbnail into this folder as MD5.jpg (or NAME.jpg without --kinds hash).")
        var thumbnailDir: String?

        @Flag(help: "Print JSON Lines, one object per file.")
        var json = false

        @Argument(help: "Photo files.")
        var files: [String]

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one FILE") }
            if let thumbnailDir {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: thumbnailDir, isDirectory: &isDirectory), isDirectory.boolValue else {
                    throw ValidationError("--thumbnail-dir \(thumbnailDir): no such folder (create it first)")
                }
            }
        }

        func run() throws {
            var failures = 0
            var failedThumbnailWrites = 0
            ProcessingPool.process(paths: files, kinds: processing.kinds, parameters: processing.parameters) { result in
                var thumbnailPath: String?
                if let thumbnailDir, let thumbnail = result.thumbnail {
                    let name = result.hashes?.md5 ?? URL(fileURLWithPath: result.path).deletingPathExtension().lastPathComponent
                    let path = URL(fileURLWithPath: thumbnailDir).appendingPathComponent("\(name).jpg").path
                    do {
                        try AtomicFile.write(Data(thumbnail.jpeg), to: URL(fileURLWithPath: path), onlyIfChanged: true)
                        thumbnailPath = path
                    } catch {
                        failedThumbnailWrites += 1
                        printError("photomill: cannot write thumbnail \(path): \(error)")
                    }
                }
                if !result.succeeded { failures += 1 }
                let report = InspectReport(result, thumbnailPath: thumbnailPath)
                print(json ? report.jsonLine() : PathBytes.display(report.text()))
            }
            if failures > 0 || failedThumbnailWrites > 0 {
                if !json { printError("photomill: \(failures) of \(files.count) files had failures") }
                throw ExitCode.someFailed
            }
        }
    }
}
