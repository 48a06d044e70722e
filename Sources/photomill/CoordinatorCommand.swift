import ArgumentParser
import Catalog
import Coordinator
import Exports
import Foundation
import Logging

extension Photomill {
    struct CoordinatorCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "coordinator",
            abstract: "Scan photo folders and serve their jobs to workers until stopped.",
            discussion: """
                Workers connect with `photomill worker --connect ENDPOINT`. SIGTERM or SIGINT: \
                commit what has come in, hand back what is still out, and exit.
                """)

        @Option(help: ArgumentHelp("Endpoint to listen on, e.g. tcp://*:5555 (repeatable).", valueName: "ENDPOINT"))
        var bind: [String] = ["tcp://*:5555"]

        @OptionGroup var cluster: ClusterFlags
        @OptionGroup var log: LogFlags

        @Argument(help: "Photo folders, scanned recursively.")
        var directories: [String]

        func validate() throws {
            try validateRoots(directories)
            for endpoint in bind where !(endpoint.hasPrefix("tcp://") || endpoint.hasPrefix("ipc://")) {
                throw ValidationError("--bind must be a tcp:// or ipc:// endpoint, not '\(endpoint)'")
            }
        }

        func run() throws {
            let logger = Logs.make("photomill.coordinator", level: log.logLevel)
            let catalog = try cluster.catalog.open(.readWrite)
            let service = CoordinatorService(configuration: cluster.configuration(bind: bind, roots: directories),
                                             catalog: catalog, logger: logger)
            let exports = try cluster.exportRoot.map { root in
                ExportQueue(exporter: try Exporter(catalog: catalog, root: root), logger: logger)
            }
            exports?.start()
            if let exports {
                service.onCommitted = { @Sendable ids in exports.enqueue(ids) }
            }
            let trap = SignalTrap { service.stop() }
            do {
                let outcome = try service.run { endpoints in
                    logger.info("listening on \(endpoints.joined(separator: ", ")); catalog \(catalog.path)")
                }
                logger.info("stopped; scan: \(outcome.scan.added) new, \(outcome.scan.changed) changed, \(outcome.scan.unchanged) unchanged")
            } catch {
                exports?.finish()
                printError("photomill coordinator: \(error)")
                throw ExitCode(1)
            }
            exports?.finish()
            withExtendedLifetime(trap) {}
        }
    }
}
