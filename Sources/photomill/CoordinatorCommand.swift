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
import Dashboard
import Foundation
import Logging
import ServiceLifecycle

extension Photomill {
    struct CoordinatorCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "coordinator",
            abstract: "Scan photo folders and serve their jobs to workers until stopped.",
            discussion: """
                Workers connect with `photomill worker --connect ENDPOINT`. tcp:// runs CURVE: \
                --key and --allow (docs/deploy.md), or --insecure. \
                The folders are scanned at start and watched (inotify): a file created, changed, moved \
                or deleted is processed once it has settled (--settle: unchanged that long, no writer), \
                a renamed folder keeps its photos' results. Full rescans run every --rescan-interval, \
                after the kernel's event queue overflowed, and when asked: `photomill scan`, \
                POST /api/v1/scan, the dashboard, or SIGHUP (`systemctl reload`, which also re-reads \
                the allow-list). Folders on network file systems (NFS, SMB/CIFS, FUSE…) and those past \
                the watch limit (--max-watches) are polled by those rescans instead. --exclude and \
                .photomillignore files leave paths out (gitignore's syntax). \
                SIGTERM or SIGINT: commit what has come in, hand back what is still out, and exit. \
                docs/operations.md, "A living library", has the details.
                """
        )

        @Option(help: ArgumentHelp("Endpoint to listen on, e.g. tcp://*:5555 (repeatable).", valueName: "ENDPOINT"))
        var bind: [String] = ["tcp://*:5555"]

        @OptionGroup var cluster: ClusterFlags
        @OptionGroup var library: LibraryFlags
        @OptionGroup var security: CoordinatorSecurityFlags
        @OptionGroup var http: HTTPFlags
        @OptionGroup var log: LogFlags

        @Argument(help: "Photo folders, scanned recursively.")
        var directories: [String]

        func validate() throws {
            try validateRoots(directories)
            for endpoint in bind where !(endpoint.hasPrefix("tcp://") || endpoint.hasPrefix("ipc://")) {
                throw ValidationError("--bind must be a tcp:// or ipc:// endpoint, not '\(endpoint)'")
            }
            try security.validate(bind: bind)
        }

        func run() async throws {
            EarlySignals.trap(hangUp: true)
            try checkRoots(directories, command: "coordinator")
            let logger = Logs.make("photomill.coordinator", level: log.logLevel)
            let httpConfiguration = try http.checkedConfiguration(command: "coordinator")
            let exportRoot = try cluster.exportRoot(roots: directories)
            var configuration = cluster.configuration(bind: bind, roots: directories, exportRoot: exportRoot)
            configuration.library = library.configuration(watch: true)
            do {
                configuration.security = try security.security(logger: logger)
            } catch {
                printError("photomill coordinator: \(error)")
                throw ExitCode.usage
            }
            let catalog = try cluster.catalog.open(.exclusive, logger: logger)
            defer { catalog.close() }
            let bound = { @Sendable (endpoints: [String]) in
                logger.info(
                    "listening on",
                    metadata: ["endpoints": "\(endpoints.joined(separator: ","))", "catalog": "\(catalog.path)"]
                )
            }
            let stack: CoordinatorStack
            do {
                stack = try CoordinatorStack(
                    configuration: configuration,
                    catalog: catalog,
                    exportRoot: exportRoot,
                    http: httpConfiguration,
                    hooks: .init(bound: bound),
                    logger: logger
                )
            } catch {
                throw fail("coordinator", error, fallback: .cannotCreate)
            }
            stack.dashboard?.onListening = { address in
                logger.info("dashboard listening", metadata: ["http.url": "http://\(address)/"])
            }
            let reloads = Reloads(admission: configuration.security?.admission, catalog: catalog, logger: logger)
            do {
                try await stack.group(with: [reloads], logger: logger).run()
            } catch {
                throw fail("coordinator", error)
            }
            if let scan = stack.coordinator.outcome?.scan {
                logger.info(
                    "stopped",
                    metadata: [
                        "scan.new": "\(scan.added)", "scan.changed": "\(scan.changed)",
                        "scan.unchanged": "\(scan.unchanged)",
                        "scan.moved": "\(scan.moved)", "scan.missing": "\(scan.missing)",
                    ]
                )
            }
        }
    }
}
