import Catalog
import Foundation
import Hummingbird
import Logging
import NIOCore
import PhotomillCore
import ServiceLifecycle

/// The web dashboard, its JSON API and `/metrics` (docs/operations.md), as a `Service` beside
/// the coordinator. It reads the catalog as `photomill status` does, on a read-only
/// connection of its own from a thread of its own (`CatalogWorker`), so no request ever
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
    let worker = CatalogWorker()
    let logger: Logger
    private let lock = NSLock()
    private var history: ThroughputHistory
    /// Called with the address it listens on (the port chosen, for port 0).
    public var onListening: (@Sendable (HTTPAddress) -> Void)?

    /// `catalog`: the coordinator's, whose writer takes the actions; the dashboard opens
    /// its own read-only connection to the same file for everything it reads.
    public init(configuration: Configuration, catalog: Catalog, metrics: MetricsRegistry, views: OperatorViews,
                logger: Logger) throws(CatalogError) {
        precondition(configuration.token != nil || configuration.address.isLoopback, "a token off loopback")
        self.configuration = configuration
        writer = catalog
        reader = try Catalog(path: catalog.path, mode: .readOnly)
        self.metrics = metrics
        gauges = CatalogGauges(registry: metrics)
        self.views = views
        self.logger = logger
        history = ThroughputHistory(interval: configuration.sampleInterval)
    }

    /// The routes, for the server and for tests (HummingbirdTesting's router mode).
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: Access(token: configuration.token))
        addPage(to: router)
        addMetrics(to: router)
        addAPI(to: router)
        addPictures(to: router)
        return router
    }

    func application(onRunning: @escaping @Sendable (HTTPAddress) -> Void) -> some ApplicationProtocol {
        let address = configuration.address
        return Application(
            router: router(),
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: nil),
            services: [ThroughputSampler(dashboard: self)],
            onServerRunning: { channel in onRunning(HTTPAddress(host: address.host, port: channel.localAddress?.port ?? address.port)) },
            logger: logger)
    }

    public func run() async throws {
        defer { worker.stop() }
        let listening = ManagedFlag(), onListening = onListening
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
                return logger.warning("dashboard off: cannot listen", metadata: [
                    "http.address": "\(configuration.address)", "error": "\(failure.cause)",
                ])
            }
            throw failure
        }
    }

    // MARK: Reads and writes, off the event loops

    /// Runs catalog work on the dashboard's thread.
    func catalogWork<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await worker.perform(body)
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
final class ManagedFlag: @unchecked Sendable {
    // @unchecked: `value` is guarded by `lock`.
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
