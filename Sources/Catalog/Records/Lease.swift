import PhotomillCore

/// A lease the coordinator granted: the tasks become `leased` under `token`.
public struct Lease: Sendable, Hashable {
    public var photoId: Int64
    public var kinds: [Kind]
    public var token: String
    public var worker: String
    public var leasedAt: Double
    public var expiresAt: Double
    /// The tasks' `updatedAt` when their job was paged (`PendingJob.updatedAt`): with it,
    /// a lease whose result comes in the same batch is never written (`Catalog.commit`).
    public var pagedUpdatedAt: [Double]

    public init(photoId: Int64, kinds: [Kind], token: String, worker: String, leasedAt: Double, expiresAt: Double,
                pagedUpdatedAt: [Double] = []) {
        self.photoId = photoId
        self.kinds = kinds
        self.token = token
        self.worker = worker
        self.leasedAt = leasedAt
        self.expiresAt = expiresAt
        self.pagedUpdatedAt = pagedUpdatedAt
    }
}

/// A lease taken back without a result.
public struct Release: Sendable, Hashable {
    public enum Reason: String, Sendable {
        /// The lease's deadline passed (a hung job, or a frozen worker).
        case leaseExpired = "lease-expired"
        /// The worker disconnected or stopped answering heartbeats.
        case workerLost = "worker-lost"
        /// The coordinator is stopping and hands the work back without using an attempt.
        case shutdown

        /// The error class a task ends with when this was its last attempt.
        var finalErrorClass: ErrorClass {
            switch self {
            case .leaseExpired: .leaseExpired
            case .workerLost: .workerLost
            case .shutdown: .interrupted
            }
        }
    }

    public var lease: Lease
    public var reason: Reason
    public var message: String

    public init(lease: Lease, reason: Reason, message: String) {
        self.lease = lease
        self.reason = reason
        self.message = message
    }
}
