//===----------------------------------------------------------------------===//
//
// This source file is part of the photomill open source project
//
// Copyright (c) 2026 the photomill authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Catalog
import Coordinator
import Foundation
import PhotoProcessing
import PhotomillCore

/// What the coordinator needs besides its socket: catalog, exports, kinds, parameters.
struct ClusterFlags: ParsableArguments {
    @OptionGroup var catalog: CatalogFlags

    @Option(
        help: ArgumentHelp("Folder for the exports (default: photomill-exports beside the catalog).", valueName: "DIR")
    )
    var exports: String?

    @Flag(help: "Write no exports (the catalog alone keeps the results; `photomill export` can write them later).")
    var noExports = false

    @OptionGroup var processing: ProcessingFlags

    @Option(
        help: ArgumentHelp(
            "Lease deadline of every kind, in seconds (default: \(Self.defaultDeadlines)); workers renew it for slow jobs up to 4 times this.",
            valueName: "SECONDS"
        )
    )
    var leaseSeconds: Double?

    /// "60 hash and metadata, 120 thumbnail, 300 OCR": each kind's `KindDescriptor.deadline`.
    private static var defaultDeadlines: String {
        var groups: [(seconds: Double, kinds: [String])] = []
        for kind in Kind.allCases {
            if groups.last?.seconds == kind.descriptor.deadline {
                groups[groups.count - 1].kinds.append(kind.title)
            } else {
                groups.append((kind.descriptor.deadline, [kind.title]))
            }
        }
        return groups.map { "\(Int($0.seconds)) " + $0.kinds.joined(separator: " and ") }.joined(separator: ", ")
    }

    func validate() throws {
        if let leaseSeconds, !(0.1...86_400).contains(leaseSeconds) {
            throw ValidationError("--lease-seconds must be between 0.1 and 86400")
        }
    }

    /// `--exports`, else `photomill-exports` beside the catalog; but never inside a scanned
    /// folder by default (`cd ~/Pictures && photomill run .` would scan its own exports):
    /// then beside the outermost scanned folder that holds it (`~/photomill-exports`).
    func exportRoot(roots: [String]) throws -> URL? {
        guard !noExports else { return nil }
        if let exports { return URL(fileURLWithPath: exports) }
        let beside = URL(fileURLWithPath: catalog.path).standardizedFileURL.deletingLastPathComponent()
            .appendingPathComponent("photomill-exports")
        let scanned = roots.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        guard let outer = scanned.filter({ beside.path.isPath(under: $0) }).min(by: { $0.count < $1.count }) else {
            return beside
        }
        guard outer != "/" else {
            printError(
                "photomill: the default exports folder \(beside.path) would lie inside the scanned folder /; pass --exports DIR, or --no-exports"
            )
            throw ExitCode.usage
        }
        return URL(fileURLWithPath: outer).deletingLastPathComponent().appendingPathComponent("photomill-exports")
    }

    /// The coordinator's configuration; the scan leaves out the catalog's files and the exports.
    func configuration(bind: [String], roots: [String], exportRoot: URL?) -> CoordinatorConfiguration {
        var configuration = CoordinatorConfiguration(bind: bind, roots: roots, kinds: processing.kinds)
        configuration.parameters = processing.parameters
        if let leaseSeconds {
            for kind in Kind.allCases { configuration.deadlines[kind] = leaseSeconds }
        }
        let catalogPath = URL(fileURLWithPath: catalog.path).standardizedFileURL.path
        configuration.excludedPaths = Set(["", "-wal", "-shm", "-journal", "-lock"].map { catalogPath + $0 })
        if let exportRoot { configuration.excludedPaths.insert(exportRoot.standardizedFileURL.path) }
        return configuration
    }
}

func validateRoots(_ directories: [String]) throws {
    guard !directories.isEmpty else { throw ValidationError("name at least one photo folder") }
}

/// Before anything starts: every photo folder exists, is a folder and may be listed, or
/// the command exits 66 naming it.
func checkRoots(_ directories: [String], command: String) throws {
    for directory in directories {
        var info = stat()
        let problem: String?
        if stat(directory, &info) != 0 {
            problem =
                errno == ENOENT
                ? "no such folder (check the path; mount the share first if it is on one)"
                : "cannot reach it: \(String(cString: strerror(errno)))"
        } else if info.st_mode & S_IFMT != S_IFDIR {
            problem = "not a folder; name the folder that holds the photos"
        } else if let folder = opendir(directory) {
            closedir(folder)
            problem = nil
        } else {
            problem = "cannot list it: \(String(cString: strerror(errno))); run as a user who may read it"
        }
        if let problem {
            printError("photomill \(command): \(directory): \(problem)")
            throw ExitCode.noInput
        }
    }
}
