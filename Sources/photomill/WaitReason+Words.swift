import PhotomillCore

extension WaitReason {
    /// Why the tasks of `kind` wait, in words (`status`, the run's summary, the dashboard).
    func words(for kind: Kind) -> String {
        switch self {
        case .notAskedFor(let asked):
            "not asked for (--kinds \(asked.map(\.rawValue).sorted().joined(separator: ","))); a run without --kinds does them"
        case .noWorkerConnected:
            "no worker connected"
        case .languageNotOffered(let language, let offered):
            "no connected worker offers \(kind.title) in \(language) (they offer \(offered.joined(separator: ", ")))"
        case .kindNotOffered:
            "no connected worker offers \(kind.rawValue)"
        }
    }
}
