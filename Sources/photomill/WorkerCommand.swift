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
import Foundation
import Logging
import PhotomillCore
import ServiceLifecycle
import UnixSignals
import Worker

extension Photomill {
    struct WorkerCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "worker",
            abstract: "Process photos for a coordinator (on this host or another).",
            discussion: """
                Connects to the coordinator, offers SLOTS concurrent jobs, and reconnects by \
                itself (1 s doubling to 32 s) if the coordinator goes away. tcp:// runs CURVE: \
                --key and --server-key (docs/deploy.md), or --insecure. The worker opens files \
                only under its --root folders; every other photo comes as bytes in the JOB. \
                SIGTERM or SIGINT: finish the jobs in hand, deliver their results, then exit.
                """
        )

        @Option(
            help: ArgumentHelp(
                "The coordinator's endpoint, e.g. tcp://nas:5555 or ipc:///run/photomill.sock.",
                valueName: "ENDPOINT"
            )
        )
        var connect: String

        @Option(help: "Photos processed at once (default: the number of cores).")
        var slots: Int = ProcessInfo.processInfo.activeProcessorCount

        @Option(name: .customLong("kinds"), help: "Kinds this worker accepts (default: all).")
        var kindList: String = Kind.allCases.map(\.rawValue).joined(separator: ",")

        @Option(help: "OCR languages this worker offers (installed tesseract data), comma-separated.")
        var ocrLanguages: String = "eng"

        @Option(
            name: .customLong("root"),
            help: ArgumentHelp(
                "Read photos under this folder itself (repeatable); other photos come as bytes in the JOB (default: none, every photo comes as bytes).",
                valueName: "DIR"
            )
        )
        var roots: [String] = []

        @Option(
            name: .customLong("map"),
            help: ArgumentHelp(
                "The coordinator's FROM is TO on this host (repeatable); TO must lie under a --root.",
                valueName: "FROM=TO"
            )
        )
        var maps: [String] = []

        @Option(
            help: ArgumentHelp(
                "How often, in milliseconds, this worker and the coordinator prove they are alive on this connection (PROTOCOL.md, \"Heartbeating\"): 100-60000; each side takes the other for dead after three intervals of silence.",
                valueName: "MS"
            )
        )
        var heartbeatInterval: UInt32 = 1000

        @Flag(help: .hidden)
        var dieWithParent = false

        @OptionGroup var security: WorkerSecurityFlags
        @OptionGroup var log: LogFlags

        func validate() throws {
            guard connect.hasPrefix("tcp://") || connect.hasPrefix("ipc://") else {
                throw ValidationError("--connect must be a tcp:// or ipc:// endpoint, e.g. tcp://nas:5555")
            }
            guard (1...1024).contains(slots) else { throw ValidationError("--slots must be between 1 and 1024") }
            guard (100...60_000).contains(heartbeatInterval) else {
                throw ValidationError("--heartbeat-interval must be between 100 and 60000 milliseconds")
            }
            if case .failure(let error) = Kind.parseList(kindList) { throw ValidationError("--kinds: \(error)") }
            for map in maps where map.split(separator: "=", maxSplits: 1).count != 2 {
                throw ValidationError("--map must look like /volume1/photos=/mnt/photos, not '\(map)'")
            }
            for root in roots {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue
                else {
                    throw ValidationError(
                        "--root \(root): no such folder (mount it first, or leave it out to get photos as bytes)"
                    )
                }
            }
            for map in maps {
                let to = String(map.split(separator: "=", maxSplits: 1)[1])
                guard roots.contains(where: to.isPath(under:)) else {
                    throw ValidationError(
                        "--map \(map): \(to) is under no --root, so the worker would never read it; add --root \(to)"
                    )
                }
            }
            try security.validate(connect: connect)
        }

        func run() async throws {
            EarlySignals.trap()
            if dieWithParent { ParentWatch.start() }
            let logger = Logs.make("photomill.worker", level: log.logLevel)
            var configuration = WorkerConfiguration(
                endpoint: connect,
                slots: slots,
                kinds: (try? Kind.parseList(kindList).get()) ?? Set(Kind.allCases),
                ocrLanguages: ocrLanguages.split(separator: ",").map(String.init),
                pathRoots: roots.map { URL(fileURLWithPath: $0).standardizedFileURL.path },
                pathMap: maps.map { map in
                    let parts = map.split(separator: "=", maxSplits: 1).map {
                        URL(fileURLWithPath: String($0)).standardizedFileURL.path
                    }
                    return (parts[0], parts[1])
                }
            )
            configuration.heartbeatInterval = Double(heartbeatInterval) / 1000
            configuration.softwareVersion = VersionReport.software
            do {
                configuration.security = try security.security()
            } catch {
                printError("photomill worker: \(error)")
                throw ExitCode.usage
            }
            let service = WorkerService(configuration: configuration, logger: logger)
            logger.info(
                "worker connecting",
                metadata: [
                    "worker.id": "\(configuration.workerId)", "coordinator": "\(connect)", "worker.slots": "\(slots)",
                ]
            )
            // SIGTERM or SIGINT: the worker drains; its `run()` returning ends the group.
            let group = ServiceGroup(
                configuration: .init(
                    services: [
                        .init(service: SecondSignalExits()),
                        .init(
                            service: service,
                            successTerminationBehavior: .gracefullyShutdownGroup,
                            failureTerminationBehavior: .gracefullyShutdownGroup
                        ),
                    ],
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: logger
                )
            )
            do {
                try await group.run()
            } catch {
                throw fail("worker", error)
            }
        }
    }
}
