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
                Workers connect with `photomill worker --connect ENDPOINT`. tcp:// runs CURVE: \
                --key and --allow (docs/deploy.md), or --insecure. SIGHUP re-reads the allow-list. \
                SIGTERM or SIGINT: commit what has come in, hand back what is still out, and exit.
                """)

        @Option(help: ArgumentHelp("Endpoint to listen on, e.g. tcp://*:5555 (repeatable).", valueName: "ENDPOINT"))
        var bind: [String] = ["tcp://*:5555"]

        @OptionGroup var cluster: ClusterFlags
        @OptionGroup var security: CoordinatorSecurityFlags
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

        func run() throws {
            let logger = Logs.make("photomill.coordinator", level: log.logLevel)
            var configuration = cluster.configuration(bind: bind, roots: directories)
            do {
                configuration.security = try security.security(logger: logger)
            } catch {
                printError("photomill coordinator: \(error)")
                throw ExitCode(64)
            }
            let catalog = try cluster.catalog.open(.readWrite)
            let service = CoordinatorService(configuration: configuration, catalog: catalog, logger: logger)
            let exports = try cluster.exportRoot.map { root in
                ExportQueue(exporter: try Exporter(catalog: catalog, root: root), logger: logger)
            }
            exports?.start()
            if let exports {
                service.onCommitted = { @Sendable ids in exports.enqueue(ids) }
            }
            let trap = SignalTrap { service.stop() }
            let hangup = configuration.security.map { security in HangupTrap { security.admission.reload() } }
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
            withExtendedLifetime((trap, hangup)) {}
        }
    }
}
