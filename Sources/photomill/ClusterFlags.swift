import ArgumentParser
import Catalog
import Coordinator
import Foundation
import PhotoProcessing
import PhotomillCore

/// What the coordinator needs besides its socket: catalog, exports, kinds, parameters.
struct ClusterFlags: ParsableArguments {
    @OptionGroup var catalog: CatalogFlags

    @Option(help: ArgumentHelp("Folder for the exports (default: photomill-exports beside the catalog).", valueName: "DIR"))
    var exports: String?

    @Flag(help: "Write no exports (the catalog alone keeps the results; `photomill export` can write them later).")
    var noExports = false

    @OptionGroup var processing: ProcessingFlags

    @Option(help: ArgumentHelp("Lease deadline of every kind, in seconds (default: 60 hash and metadata, 120 thumbnail, 300 OCR); workers renew it for slow jobs up to 4 times this.", valueName: "SECONDS"))
    var leaseSeconds: Double?

    func validate() throws {
        if let leaseSeconds, !(0.1...86_400).contains(leaseSeconds) {
            throw ValidationError("--lease-seconds must be between 0.1 and 86400")
        }
    }

    var exportRoot: URL? {
        guard !noExports else { return nil }
        if let exports { return URL(fileURLWithPath: exports) }
        return URL(fileURLWithPath: catalog.path).deletingLastPathComponent().appendingPathComponent("photomill-exports")
    }

    func configuration(bind: [String], roots: [String]) -> CoordinatorConfiguration {
        var configuration = CoordinatorConfiguration(bind: bind, roots: roots, kinds: processing.kinds)
        configuration.parameters = processing.parameters
        if let leaseSeconds {
            for kind in Kind.allCases { configuration.deadlines[kind] = leaseSeconds }
        }
        return configuration
    }
}

func validateRoots(_ directories: [String]) throws {
    guard !directories.isEmpty else { throw ValidationError("name at least one photo folder") }
    for directory in directories {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("\(directory): no such folder")
        }
    }
}
