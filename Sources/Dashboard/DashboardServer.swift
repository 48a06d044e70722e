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
import Foundation
import Hummingbird
import Logging
import NIOCore
import PhotomillCore
import ServiceLifecycle
import Synchronization

/// The web dashboard, its JSON API and `/metrics` (docs/operations.md), as a `Service` beside
/// the coordinator. It reads the catalog as `photomill status` does, on a read-only
/// connection of its own from a thread of its own (`catalogWork`), so no request ever
/// waits on, or holds up, the coordinator's loop; actions (retry, pause, resume) are
/// catalog writes, which the running coordinator picks up within a second, as it does the
/// CLI's. Every asset is in the binary.
public final class DashboardServer: Service, @unchecked Sendable {
    // @unchecked: `history` is guarded by `lock`; the rest is immutable after `init`, or
    // thread-safe (the registry, the gauges, the catalog worker).
    public struct Configuration: Sendable {
        public var address: HTTPAddress
        /// The bearer token the API and `/metrics` want; required off loopback.
        public var token: String?
        /// A failure to listen ends the group (an address the operator gave) or is only
        /// logged (the default one, perhaps taken by another photomill).
        public var required: Bool
        /// Seconds between the throughput chart's samples (720 an hour).
        public var sampleInterval: Double = 5
        /// HTTP connections held at once (`ConnectionBudget`): a share of the open-file limit.
        public var maxConnections = DescriptorLimit.httpConnections(soft: DescriptorLimit.current.soft)

        public init(address: HTTPAddress, token: String?, required: Bool) {
            self.address = address
            self.token = token
            self.required = required
        }
    }

    public let configuration: Configuration
    let writer: Catalog
    let reader: Catalog
    let views: OperatorViews
    let metrics: MetricsRegistry
    let gauges: CatalogGauges
    let processGauges: ProcessGauges
    /// The dashboard's catalog work, one request at a time: however many browsers and
    /// scrapers ask, it holds at most one reader of the catalog (and queues behind the
    /// coordinator's writer for an action), so it can never starve the coordinator.
    let worker = BlockingExecutor(name: "pm-http-catalog")
    let connections: ConnectionBudget
    let logger: Logger
    private let lock = NSLock()
    private var history: ThroughputHistory
    /// Called with the address it listens on (the port chosen, for port 0).
    public var onListening: (@Sendable (HTTPAddress) -> Void)?

    /// `catalog`: the coordinator's, whose writer takes the actions; the dashboard opens
    /// its own read-only connection to the same file for everything it reads.
    public init(
        configuration: Configuration,
        catalog: Catalog,
        metrics: MetricsRegistry,
        views: OperatorViews,
        logger: Logger
    ) throws(CatalogError) {
        precondition(configuration.token != nil || configuration.address.isLoopback, "a token off loopback")
        self.configuration = configuration
        writer = catalog
        reader = try Catalog(path: catalog.path, mode: .readOnly)
        self.metrics = metrics
        gauges = CatalogGauges(registry: metrics)
        processGauges = ProcessGauges(registry: metrics)
        connections = ConnectionBudget(limit: configuration.maxConnections)
        self.views = views
        self.logger = logger
        history = ThroughputHistory(interval: configuration.sampleInterval)
    }

    /// Seconds a connection may stay silent, or take to send its request's head, before
    /// it is closed: the page polls every 2 s, and a connection held but unused is a slot
    /// another client waits for.
    static let idleTimeout: Int64 = 5

    /// The routes, for the server and for tests (HummingbirdTesting's router mode). The
    /// routes that hold data are added to a group that wants the token (`BearerToken`);
    /// a route added anywhere else is public (`AccessSpellingTests` lists the public ones).
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: Access(token: configuration.token))
        addPage(to: router)
        addPicturePages(to: router)
        let data = router.group().add(middleware: BearerToken(token: configuration.token))
        addMetrics(to: data)
        addAPI(to: data)
        addPictures(to: data)
        return router
    }

    func application(onRunning: @escaping @Sendable (HTTPAddress) -> Void) -> some ApplicationProtocol {
        let address = configuration.address
        return Application(
            router: router(),
            server: .http1(configuration: .init(idleTimeout: .seconds(Self.idleTimeout))),
            configuration: .init(
                address: .hostname(address.host, port: address.port),
                serverName: nil,
                availableConnectionsDelegate: connections
            ),
            services: [ThroughputSampler(dashboard: self)],
            onServerRunning: { channel in
                onRunning(HTTPAddress(host: address.host, port: channel.localAddress?.port ?? address.port))
            },
            logger: logger
        )
    }

    /// Serves until the group shuts down; returns once every catalog read it queued has
    /// run and its own connection is closed (`closeReader`).
    public func run() async throws {
        do {
            try await serve()
        } catch {
            await closeReader()
            throw error
        }
        await closeReader()
    }

    /// Refuses further catalog work, lets what is queued run, then closes the dashboard's
    /// read-only connection, on its thread. The coordinator's catalog closes after this
    /// (`Catalog.close`) and takes the file out of WAL mode, which SQLite refuses while
    /// another connection is open: left to the server's deinit, the connection stayed open
    /// whenever a read still queued (the throughput sampler's, a browser's) kept the server
    /// alive, and the catalog stayed three files (seen under load).
    func closeReader() async {
        let reader = self.reader
        _ = try? await worker.perform { _ in reader.close() }
        _ = worker.close()
    }

    private func serve() async throws {
        let listening = ManagedFlag()
        let onListening = onListening
        do {
            try await application { address in
                listening.set()
                onListening?(address)
            }.run()
        } catch {
            // Once it listened, a failure is the server's; before, it is the address's.
            guard !listening.isSet else { throw error }
            let failure = DashboardError(address: configuration.address, cause: "\(error)")
            guard configuration.required else {
                logger.warning(
                    "dashboard off: cannot listen",
                    metadata: [
                        "http.address": "\(configuration.address)", "error": "\(failure.cause)",
                    ]
                )
                // Off, but a service until the group stops: one that ended while the group
                // was shutting down (a SIGTERM at once, as the start's) would fail it.
                try? await gracefulShutdown()
                return
            }
            throw failure
        }
    }

    // MARK: Reads and writes, off the event loops

    /// Runs catalog work on the dashboard's thread.
    func catalogWork<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await worker.perform { _ in try body() }
    }

    /// A sample for the throughput chart.
    func sample() async throws {
        let figures = try await catalogWork { try self.reader.figures() }
        lock.withLock { history.record(figures) }
    }

    var throughput: ThroughputHistory { lock.withLock { history } }
}

/// The dashboard could not listen where it was told to.
public struct DashboardError: Error, CustomStringConvertible, Sendable {
    public let address: HTTPAddress
    public let cause: String
    public var description: String {
        "--http \(address): cannot listen: \(cause) (another program on that port? choose another with --http, or --no-http)"
    }
}

/// Samples task counts for the throughput chart every `sampleInterval` seconds.
struct ThroughputSampler: Service {
    let dashboard: DashboardServer

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            try? await dashboard.sample()
            try? await cancelWhenGracefulShutdown {
                try await Task.sleep(for: .seconds(dashboard.configuration.sampleInterval))
            }
        }
    }
}

/// A flag set once, read from any thread.
final class ManagedFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
