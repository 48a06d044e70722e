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

    /// Opens the catalog or exits with a message that says what to do. `mustExist`: a
    /// command that changes a catalog (retry, reprocess) never creates one from a typo.
    func open(_ mode: Catalog.Mode, mustExist: Bool = false) throws -> Catalog {
        do throws(CatalogError) {
            if mustExist && !FileManager.default.fileExists(atPath: path) {
                throw CatalogError(.missing, path: path, "no catalog here (run `photomill run` first, or pass --catalog)")
            }
            return try Catalog(path: path, mode: mode)
        } catch {
            printError("photomill: \(error)")
            throw ExitCode(error.code == .missing ? 66 : 74)
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
