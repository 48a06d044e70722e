import Catalog
import Coordinator
import Exports
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// The coordinator and what follows its commits (the exports), as `run` and `coordinator`
/// both build them, and the `ServiceGroup` they run in.
struct CoordinatorStack {
    let coordinator: CoordinatorService
    let exports: ExportService?

    init(configuration: CoordinatorConfiguration, catalog: Catalog, exportRoot: URL?, logger: Logger) throws {
        coordinator = CoordinatorService(configuration: configuration, catalog: catalog, logger: logger)
        exports = try exportRoot.map { root in ExportService(exporter: try Exporter(catalog: catalog, root: root), logger: logger) }
        if let exports {
            coordinator.onCommitted = { @Sendable ids in exports.enqueue(ids) }
        }
    }

    /// SIGTERM and SIGINT shut the group down in the reverse order of its services: the
    /// coordinator first (it commits and hands back what is out), then `between` (last
    /// one first), then the exports (what is queued, then the manifest). The coordinator
    /// returning (a `run` that is done) or failing shuts the group down the same way.
    func group(with between: [any Service], logger: Logger) -> ServiceGroup {
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: SecondSignalExits())]
        if let exports { services.append(.init(service: exports)) }
        services += between.map { .init(service: $0) }
        services.append(.init(service: coordinator, successTerminationBehavior: .gracefullyShutdownGroup,
                              failureTerminationBehavior: .gracefullyShutdownGroup))
        return ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    }
}
