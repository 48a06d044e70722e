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

import Catalog
import Coordinator
import Dashboard
import Exports
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// The coordinator, what follows its commits (the exports) and the dashboard beside it, as
/// `run` and `coordinator` both build them, and the `ServiceGroup` they run in.
struct CoordinatorStack {
    let coordinator: CoordinatorService
    let exports: ExportService?
    let dashboard: DashboardServer?

    /// `hooks`: what the command does when the coordinator is bound and when it first has
    /// work; the exports follow its commits.
    init(
        configuration: CoordinatorConfiguration,
        catalog: Catalog,
        exportRoot: URL?,
        http: DashboardServer.Configuration?,
        hooks: CoordinatorService.Hooks = .init(),
        logger: Logger
    ) throws {
        let exports = try exportRoot.map { root in
            ExportService(exporter: try Exporter(catalog: catalog, root: root), logger: logger)
        }
        var hooks = hooks
        if let exports {
            hooks.committed = { @Sendable ids in exports.enqueue(ids) }
            // Photos moved, gone, excluded or changed: their plists and the manifest follow.
            hooks.libraryChanged = { @Sendable ids in exports.enqueue(ids) }
        }
        // The coordinator's metrics go into the registry /metrics shows; with no HTTP they
        // are not made at all.
        let registry = http.map { _ in
            MetricsRegistry(help: CoordinatorMetrics.help, buckets: CoordinatorMetrics.buckets)
        }
        coordinator = CoordinatorService(
            configuration: configuration,
            catalog: catalog,
            metrics: registry.map { CoordinatorMetrics(factory: $0) },
            hooks: hooks,
            logger: logger
        )
        self.exports = exports
        if let http, let registry {
            dashboard = try DashboardServer(
                configuration: http,
                catalog: catalog,
                metrics: registry,
                views: .cli,
                logger: logger
            )
        } else {
            dashboard = nil
        }
    }

    /// SIGTERM and SIGINT shut the group down in the reverse order of its services: the
    /// coordinator first (it commits and hands back what is out), then `between` (last
    /// one first), then the exports (what is queued, then the manifest), the dashboard
    /// last (it shows the end). The coordinator returning (a `run` that is done) or failing
    /// shuts the group down the same way; the dashboard failing to listen on the default
    /// address is only logged.
    func group(with between: [any Service], logger: Logger) -> ServiceGroup {
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: SecondSignalExits())]
        if let dashboard {
            services.append(
                .init(
                    service: dashboard,
                    successTerminationBehavior: .ignore,
                    failureTerminationBehavior: .gracefullyShutdownGroup
                )
            )
        }
        if let exports { services.append(.init(service: exports)) }
        services += between.map { .init(service: $0) }
        services.append(
            .init(
                service: coordinator,
                successTerminationBehavior: .gracefullyShutdownGroup,
                failureTerminationBehavior: .gracefullyShutdownGroup
            )
        )
        return ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        )
    }
}
