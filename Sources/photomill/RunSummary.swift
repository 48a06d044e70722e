import Catalog
import Foundation
import PhotomillCore

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
        var scanned = "scanned: \(scan.added) new, \(scan.changed) changed, \(scan.unchanged) unchanged photos"
        if scan.sidecarsChanged > 0 { scanned += ", \(scan.sidecarsChanged) changed sidecars" }
        lines.append(scanned + "; \(scan.queuedTasks) tasks queued")
        if scan.skipped > 0 { lines.append(skippedLine(scan.skipped)) }
        lines.append(columns(["kind", "done", "failed", "pending", "leased"]))
        for kind in Kind.allCases where status.counts[kind] != nil {
            lines.append(columns([kind.rawValue] + [TaskState.done, .failed, .pending, .leased].map { String(status.count(kind, $0)) }))
        }
        for kind in Kind.allCases where status.paused[kind] != nil && status.count(kind, .pending) > 0 {
            lines.append("paused: \(status.count(kind, .pending)) \(kind.rawValue) tasks wait; `photomill resume \(kind.rawValue)` lets them go on")
        }
        if !failures.isEmpty {
            lines.append("failed tasks (first \(failures.count); all with `photomill failed`):")
            for failure in failures {
                lines.append("  \(failure.kind.rawValue) \(failure.errorClass?.rawValue ?? "?"): \(failure.errorMessage ?? failure.path)")
            }
        }
        if restartedWorkers > 0 { lines.append("worker processes restarted after dying: \(restartedWorkers)") }
        if let exportRoot { lines.append("exports: \(exportRoot.path)") }
        lines.append("time: \(duration(elapsed))")
        return lines.joined(separator: "\n")
    }
}

/// A table row: the first cell left-aligned in 10 columns, the others right-aligned in 9.
func columns(_ cells: [String]) -> String {
    guard let first = cells.first else { return "" }
    let rest = cells.dropFirst().map { String(repeating: " ", count: max(0, 9 - $0.count)) + $0 }
    return first.padding(toLength: max(10, first.count), withPad: " ", startingAt: 0) + rest.joined()
}

/// "skipped: N files that are not photos, RAW or videos", in the singular for one.
func skippedLine(_ count: Int) -> String {
    count == 1 ? "skipped: 1 file that is not a photo, RAW or video" : "skipped: \(count) files that are not photos, RAW or videos"
}
