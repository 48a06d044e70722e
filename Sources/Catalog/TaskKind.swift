/// The kinds of work, as stored in `tasks.kind`. The same names travel on the wire and
/// in the CLI; PhotoProcessing has its own `Kind` because the catalog sits below it.
public enum TaskKind: String, CaseIterable, Sendable, Hashable, Codable, Comparable {
    case hash, metadata, thumbnail, ocr

    public static func < (lhs: TaskKind, rhs: TaskKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// `tasks.state`: pending → leased → done | failed.
public enum TaskState: String, CaseIterable, Sendable, Hashable, Codable {
    case pending, leased, done, failed
}
