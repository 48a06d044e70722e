import Catalog
import Foundation

/// The summary `photomill run` prints at the end.
struct RunSummary {
    let status: CatalogStatus
    let scan: ScanSummary
    let elapsed: Double
    let exportRoot: URL?
    let failures: [FailedTask]
    let restartedWorkers: Int

    func text() -> String {
        var lines: [String] = []
        lines.append("scanned: \(scan.added) new, \(scan.changed) changed, \(scan.unchanged) unchanged photos; \(scan.queuedTasks) tasks queued")
        lines.append(String(format: "%-10@ %8@ %8@ %8@ %8@", "kind", "done", "failed", "pending", "leased"))
        for kind in TaskKind.allCases where status.counts[kind] != nil {
            lines.append(String(format: "%-10@ %8d %8d %8d %8d", kind.rawValue, status.count(kind, .done),
                                status.count(kind, .failed), status.count(kind, .pending), status.count(kind, .leased)))
        }
        if !failures.isEmpty {
            lines.append("failed tasks (first \(failures.count); all with `photomill status`):")
            for failure in failures {
                lines.append("  \(failure.kind) \(failure.errorClass ?? "?"): \(failure.errorMessage ?? failure.path)")
            }
        }
        if restartedWorkers > 0 { lines.append("worker processes restarted after dying: \(restartedWorkers)") }
        if let exportRoot { lines.append("exports: \(exportRoot.path)") }
        lines.append("time: \(duration(elapsed))")
        return lines.joined(separator: "\n")
    }
}
