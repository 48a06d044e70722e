import ArgumentParser
import Catalog
import Foundation

/// `--catalog FILE`, shared by every command that uses the catalog.
struct CatalogFlags: ParsableArguments {
    @Option(help: ArgumentHelp("The SQLite catalog (default: $PHOTOMILL_CATALOG, else ./photomill.sqlite).", valueName: "FILE"))
    var catalog: String?

    var path: String {
        catalog ?? ProcessInfo.processInfo.environment["PHOTOMILL_CATALOG"] ?? "photomill.sqlite"
    }

    /// Opens the catalog or exits with a message that says what to do: 66 for a missing
    /// catalog, 74 for one of a newer schema, `unusable` for one that cannot be opened (the
    /// long-running commands, whose failures all exit 1, pass 1). `mustExist`: a command
    /// that changes a catalog (retry, reprocess) never creates one from a typo.
    func open(_ mode: Catalog.Mode, mustExist: Bool = false, unusable: Int32 = 74) throws -> Catalog {
        do throws(CatalogError) {
            if mustExist && !FileManager.default.fileExists(atPath: path) {
                throw CatalogError(.missing, path: path, "no catalog here (run `photomill run` first, or pass --catalog)")
            }
            return try Catalog(path: path, mode: mode)
        } catch {
            printError("photomill: \(error)")
            throw ExitCode(error.code == .missing ? 66 : error.code == .newerSchema ? 74 : unusable)
        }
    }
}

/// `--log-level`, shared by the long-running commands.
struct LogFlags: ParsableArguments {
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    func validate() throws {
        guard ["trace", "debug", "info", "notice", "warning", "error", "critical"].contains(logLevel) else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
    }
}
