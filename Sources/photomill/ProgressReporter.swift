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
import PhotomillCore
import ServiceLifecycle

/// The live progress of `photomill run`, read from the catalog (a WAL reader, so it never
/// slows the coordinator): on a terminal, a bar per kind with its rate and ETA, redrawn in
/// place twice a second; otherwise a plain line every five seconds. A `Service` whose
/// drawing runs on a thread of its own until graceful shutdown, which clears the bars.
final class ProgressReporter: Service, @unchecked Sendable {
    // @unchecked: `stopped` is thread-safe; the rest is immutable or used by the
    // reporter thread only.
    private let catalog: Catalog
    private let stopped = DispatchSemaphore(value: 0)
    private let isTerminal = isatty(STDERR_FILENO) != 0

    init(catalog: Catalog) { self.catalog = catalog }

    func run() async throws {
        let drawing = OwnedThread(name: "pm-progress") { [self] in draw() }
        try? await gracefulShutdown()
        stopped.signal()
        await drawing.value
    }

    private func draw() {
        let started = MonotonicInstant.now()
        var lastLine = MonotonicInstant.distantPast
        var drawn = 0
        let every = isTerminal ? 0.5 : 5
        // Waits on the semaphore (a monotonic timeout), so that the end of the run ends the wait at once.
        while stopped.wait(timeout: .now() + (isTerminal ? 0.5 : 1)) == .timedOut {
            guard MonotonicInstant.now() - lastLine >= every, let status = try? catalog.status() else { continue }
            lastLine = MonotonicInstant.now()
            let elapsed = lastLine - started
            if isTerminal {
                let lines = Self.bars(status, elapsed: elapsed)
                write(Self.moveUp(drawn) + lines.map { $0 + "\u{1B}[K\n" }.joined())
                drawn = lines.count
            } else {
                write(Self.line(status, elapsed: elapsed) + "\n")
            }
        }
        if isTerminal { write(Self.moveUp(drawn) + "\u{1B}[J") }
    }

    private func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }

    private static func right(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    private static func moveUp(_ lines: Int) -> String { lines > 0 ? "\u{1B}[\(lines)F" : "" }

    /// One line per kind: `ocr        [██████░░░░░░░░░░░░░░]    312/1000  31%   4.2/s  ETA 2m44s`,
    /// then photos, failures and elapsed time.
    static func bars(_ status: CatalogStatus, elapsed: Double, width: Int = 24) -> [String] {
        var lines: [String] = []
        for kind in Kind.allCases where status.counts[kind] != nil {
            let all = status.counts[kind]!.values.reduce(0, +)
            let finished = status.count(kind, .done) + status.count(kind, .failed)
            let fraction = all > 0 ? Double(finished) / Double(all) : 1
            let filled = Int((fraction * Double(width)).rounded(.down))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            let rate = status.rates[kind]?.perSecond ?? 0
            let eta = status.etaSeconds(kind).map { $0 > 0 ? "ETA " + duration($0) : "done" } ?? "ETA ?"
            lines.append(
                kind.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0) + "[" + bar + "] "
                    + right("\(finished)/\(all)", 15) + right("\(Int(fraction * 100))%", 5)
                    + right(String(format: "%.1f/s", rate), 9) + "  " + eta
            )
        }
        var summary = ["\(status.photos) photos"]
        if status.total(.failed) > 0 { summary.append("\(status.total(.failed)) failed") }
        if let eta = status.etaSeconds, eta > 0 { summary.append("ETA " + duration(eta)) }
        summary.append(duration(elapsed))
        lines.append(summary.joined(separator: " · "))
        return lines
    }

    /// `1000 photos · hash 812/1000 · ocr 97/1000 · 3 failed · 41 tasks/s · ETA 3m10s · 1m02s`
    static func line(_ status: CatalogStatus, elapsed: Double) -> String {
        let kinds = Kind.allCases.filter { status.counts[$0] != nil }.map { kind in
            "\(kind.rawValue) \(status.count(kind, .done) + status.count(kind, .failed))/\(status.counts[kind]!.values.reduce(0, +))"
        }
        var parts = ["\(status.photos) photos"] + kinds
        if status.total(.failed) > 0 { parts.append("\(status.total(.failed)) failed") }
        parts.append(String(format: "%.0f tasks/s", status.rates.values.reduce(0) { $0 + $1.perSecond }))
        if let eta = status.etaSeconds, eta > 0 { parts.append("ETA \(duration(eta))") }
        parts.append(duration(elapsed))
        return parts.joined(separator: " · ")
    }
}

func duration(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    return s >= 3600
        ? String(format: "%dh%02dm", s / 3600, s % 3600 / 60)
        : s >= 60 ? String(format: "%dm%02ds", s / 60, s % 60) : "\(s)s"
}
