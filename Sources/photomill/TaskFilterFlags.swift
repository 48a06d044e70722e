import ArgumentParser
import Catalog
import PhotoProcessing

/// `--kind` and `--path`, shared by failed, retry and reprocess.
struct TaskFilterFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Only these kinds (comma-separated: hash, metadata, thumbnail, ocr).", valueName: "K"))
    var kind: String?

    @Option(help: ArgumentHelp("Only photos whose absolute path matches this glob (`*` also matches `/`), e.g. '*/2019/*'.",
                               valueName: "GLOB"))
    var path: String?

    func validate() throws {
        if let kind, case .failure(let error) = Kind.parseList(kind) { throw ValidationError("--kind: \(error)") }
        if let path {
            guard let first = path.first, "/*?[".contains(first) else {
                throw ValidationError("--path '\(path)' can never match: catalog paths are absolute, so start the glob with / or *")
            }
        }
    }

    func filter(errorClass: String? = nil) -> TaskFilter {
        let kinds = kind.flatMap { try? Kind.parseList($0).get() } ?? []
        return TaskFilter(kinds: Set(kinds.compactMap { TaskKind(rawValue: $0.rawValue) }), errorClass: errorClass, pathGlob: path)
    }
}

/// `--class`, for failed tasks.
struct ErrorClassFlag: ParsableArguments {
    @Option(name: .customLong("class"), help: ArgumentHelp("Only failures of this error class, e.g. corrupt, timeout.", valueName: "C"))
    var errorClass: String?

    /// The classes photomill itself records: the processors' (docs/processing.md) and the
    /// coordinator's and workers' (docs/catalog.md).
    static let known: Set<String> = [
        "unreadable", "not-an-image", "unsupported-format", "too-large", "corrupt", "ocr-failed", "changed-since-scan",
        "timeout", "worker-crashed", "interrupted", "protocol", "shutting-down",
    ]

    func validate() throws {
        if let errorClass, errorClass.isEmpty || !errorClass.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) {
            throw ValidationError("--class must be an error class such as corrupt or worker-crashed, not '\(errorClass)'")
        }
    }

    /// Refuses a class that photomill never records and no failed task of this catalog has
    /// (a typo would otherwise match nothing, silently).
    func check(in catalog: Catalog) throws {
        guard let errorClass, !Self.known.contains(errorClass) else { return }
        let present = try catalog.failedClasses()
        guard present[errorClass] == nil else { return }
        let listed = present.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
        printError("photomill: --class '\(errorClass)' is not an error class of this catalog; failed tasks have: \(listed.isEmpty ? "none" : listed)")
        throw ExitCode(64)
    }
}
