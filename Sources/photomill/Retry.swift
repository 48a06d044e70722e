import ArgumentParser
import Catalog
import Foundation
import PhotoProcessing

extension Photomill {
    struct Retry: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put failed tasks back in the queue with a fresh attempt budget.",
            discussion: """
                Takes the same filters as `photomill failed`. A running coordinator picks the \
                tasks up within a second; otherwise the next `photomill run` does.
                """)

        @OptionGroup var catalog: CatalogFlags
        @OptionGroup var filters: TaskFilterFlags
        @OptionGroup var errorClass: ErrorClassFlag

        @Flag(help: "Only say how many tasks would be retried.")
        var dryRun = false

        @Flag(help: "Print one JSON object.")
        var json = false

        func run() throws {
            let catalog = try catalog.open(.readWrite, mustExist: true)
            try errorClass.check(in: catalog)
            let counts = try catalog.retryFailed(matching: filters.filter(errorClass: errorClass.errorClass), dryRun: dryRun,
                                                 now: Date().timeIntervalSince1970)
            print(RequeueReport(counts: counts, dryRun: dryRun).render(json: json, verb: dryRun ? "would retry" : "retried",
                                                                        what: "failed tasks"))
        }
    }

    struct Reprocess: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put done tasks back in the queue: those of an outdated recipe, or all.",
            discussion: """
                Every result records its recipe: the code version and the parameters that shape \
                it (thumbnail size and quality, OCR language and page size). --outdated requeues \
                the results whose recipe differs from the one the given processing flags make \
                (pass the flags the coordinator runs with). The old result stays until the new \
                one replaces it.
                """)

        @OptionGroup var catalog: CatalogFlags
        @OptionGroup var filters: TaskFilterFlags

        @Flag(help: "Only results whose recipe differs from the current configuration.")
        var outdated = false

        @Flag(help: "Every result.")
        var all = false

        @Option(help: "Longest side of thumbnails the coordinator uses.")
        var thumbnailSize: Int = ProcessingOptions().thumbnailSize

        @Option(help: "Tesseract language(s) the coordinator uses.")
        var ocrLanguage: String = ProcessingOptions().ocrLanguage

        @Flag(help: "Only say how many tasks would be requeued.")
        var dryRun = false

        @Flag(help: "Print one JSON object.")
        var json = false

        func validate() throws {
            guard outdated != all else { throw ValidationError("give exactly one of --outdated and --all") }
            guard (16...4096).contains(thumbnailSize) else {
                throw ValidationError("--thumbnail-size must be between 16 and 4096 pixels, not \(thumbnailSize)")
            }
            guard !ocrLanguage.isEmpty, ocrLanguage.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "_" }) else {
                throw ValidationError("--ocr-language must look like 'eng' or 'eng+deu', not '\(ocrLanguage)'")
            }
        }

        func run() throws {
            var options = ProcessingOptions()
            options.thumbnailSize = thumbnailSize
            options.ocrLanguage = ocrLanguage
            let recipes = Dictionary(uniqueKeysWithValues: Kind.allCases.compactMap { kind in
                TaskKind(rawValue: kind.rawValue).map { ($0, options.recipe(for: kind)) }
            })
            let catalog = try catalog.open(.readWrite, mustExist: true)
            let counts = try catalog.reprocess(matching: filters.filter(), currentRecipes: outdated ? recipes : nil,
                                               dryRun: dryRun, now: Date().timeIntervalSince1970)
            print(RequeueReport(counts: counts, dryRun: dryRun).render(json: json, verb: dryRun ? "would requeue" : "requeued",
                                                                        what: outdated ? "outdated results" : "results"))
        }
    }
}

/// What retry and reprocess print: {"dryRun": false, "tasks": 12, "byKind": {"ocr": 12}}.
struct RequeueReport: Encodable {
    let dryRun: Bool
    let tasks: Int
    let byKind: [String: Int]

    init(counts: [TaskKind: Int], dryRun: Bool) {
        self.dryRun = dryRun
        tasks = counts.values.reduce(0, +)
        byKind = Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) })
    }

    func render(json: Bool, verb: String, what: String) -> String {
        if json { return jsonLine(self) }
        let kinds = TaskKind.allCases.compactMap { kind in byKind[kind.rawValue].map { "\(kind.rawValue) \($0)" } }
        var line = "\(verb) \(tasks) \(what)" + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))")
        if !dryRun && tasks > 0 { line += "; a running coordinator picks them up, or run `photomill run` again" }
        return line
    }
}
