import PhotomillCore

/// One reported result with the facts of its attempt.
public struct ReportedResult: Sendable, Hashable {
    public var result: TaskResult
    public var worker: String
    public var startedAt: Double
    public var endedAt: Double

    public init(result: TaskResult, worker: String, startedAt: Double, endedAt: Double) {
        self.result = result
        self.worker = worker
        self.startedAt = startedAt
        self.endedAt = endedAt
    }
}

/// Everything the coordinator commits in one transaction.
public struct CommitBatch: Sendable {
    public var leases: [Lease] = []
    public var extensions: [(token: String, expiresAt: Double)] = []
    public var results: [ReportedResult] = []
    public var releases: [Release] = []
    public var workers: [WorkerRow] = []
    /// Dropped protocol messages by reason, counted since the last commit.
    public var violations: [String: Int] = [:]

    public init() {}

    public var isEmpty: Bool {
        leases.isEmpty && extensions.isEmpty && results.isEmpty && releases.isEmpty && workers.isEmpty && violations.isEmpty
    }
}

public struct CommitReport: Sendable {
    /// Results written, by lease token.
    public var committed: Set<String> = []
    /// Results whose lease was no longer valid, by lease token: acknowledged, discarded.
    public var stale: Set<String> = []
    /// Tasks whose last attempt failed (now `failed`).
    public var failedTasks = 0
    /// Tasks sent back to `pending` for another attempt.
    public var retriedTasks = 0
    /// Photo ids whose results changed (for the exporter).
    public var touchedPhotos: Set<Int64> = []
    /// Stale results of photos no longer in the catalog (`forget --missing` since their
    /// job went out): in `stale`, with no attempts row, which could not reference them.
    public var forgottenResults = 0

    public init() {}
}
