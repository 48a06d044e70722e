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

import ArgumentParser
import Catalog
import Coordinator
import Foundation
import PhotomillCore

extension Photomill {
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show counts per kind and state, throughput, ETA and workers (during a run and after it).",
            discussion: """
                Reads the catalog as a WAL reader, so it never slows a running coordinator. \
                Throughput is what finished over the last minute; the ETA divides what remains \
                of each kind by that kind's rate. --watch redraws in place on a terminal and \
                prints one report after another otherwise (JSON Lines with --json).
                """
        )

        @OptionGroup var catalog: CatalogFlags

        @Flag(help: "Print one JSON object (one per line with --watch).")
        var json = false

        @Flag(help: "Report again every SECONDS (default 2) until interrupted.")
        var watch = false

        @Argument(help: "With --watch: seconds between reports.")
        var seconds: Double?

        func validate() throws {
            if seconds != nil && !watch {
                throw ValidationError("SECONDS goes with --watch: photomill status --watch 5")
            }
            if let seconds, !(0.1...3600).contains(seconds) {
                throw ValidationError("--watch SECONDS must be between 0.1 and 3600, not \(seconds)")
            }
        }

        func run() throws {
            let catalog = try catalog.open(.readOnly)
            let terminal = isatty(STDOUT_FILENO) != 0 && watch && !json
            while true {
                var status = try catalog.status()
                status.add(
                    try catalog.heldBack(now: status.readAt, bytesLimit: CoordinatorConfiguration.maxFileBytesAsBlobs)
                )
                let report = StatusReport(status, library: try catalog.libraryStatus())
                if json {
                    print(report.jsonString())
                } else if terminal {
                    // Home, each line cleared to its end, then the rest of the screen.
                    let lines = report.text().split(separator: "\n", omittingEmptySubsequences: false)
                    print(
                        "\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\n") + "\n\u{1B}[J",
                        terminator: ""
                    )
                } else {
                    print(report.text() + (watch ? "\n" : ""))
                }
                fflush(nil)
                guard watch else { return }
                Thread.sleep(forTimeInterval: seconds ?? 2)
            }
        }
    }
}

/// `status --json`: {"photos": N, "mediaTypes": {"photo": N, "raw": N, "video": N}, "skippedFiles": N,
/// "missingPhotos": N, "unreadableFolders": N,
/// "tasks": {"hash": {"pending": N, …}, …},
/// "throughput": {"hash": {"lastMinute": N, "perSecond": x, "etaSeconds": s}, …}, "etaSeconds": s, "workers": […],
/// "waiting": {"ocr": "…"}, "paused": {"ocr": {"reason": "…", "since": "…"}}, "droppedMessages": {…},
/// "library": {…} (`LibraryReport`)}.
struct StatusReport: Encodable {
    struct Worker: Encodable {
        let id: String
        let host: String
        /// READY's software_version; absent for workers seen before the catalog recorded it.
        let softwareVersion: String?
        let state: WorkerRow.State
        let slots: Int
        let inFlight: Int
        let done: Int
        let failed: Int
        let lastSeen: String
        let secondsSinceSeen: Double
    }
    struct Rate: Encodable {
        let lastMinute: Int
        let perSecond: Double
        /// Absent when tasks remain and none of this kind finished in the last minute.
        let etaSeconds: Double?
    }
    let readAt: String
    let photos: Int
    /// Photos by media type: `photo`, `raw`, `video`.
    let mediaTypes: [String: Int]
    /// Files found that are not media: skipped, never failed.
    let skippedFiles: Int
    /// Photos the scan no longer finds: left out of `photos` and `tasks`.
    let missingPhotos: Int
    /// Folders the scan could not list (`photomill failed` names them).
    let unreadableFolders: Int
    let tasks: [String: [String: Int]]
    let throughput: [String: Rate]
    let etaSeconds: Double?
    let workers: [Worker]
    /// Kind → why its pending tasks wait: paused, no worker for it, not among the
    /// coordinator's --kinds, too large for byte transfer, backing off until a time.
    let waiting: [String: String]
    /// Kinds an operator paused: reason and since when.
    let paused: [String: PauseReport.Paused]
    /// Messages the coordinator dropped, by reason (docs/reliability.md).
    let droppedMessages: [String: Int]
    /// What is watched, polled, excluded and skipped (`LibraryReport`).
    let library: LibraryReport?

    init(_ status: CatalogStatus, library: LibraryStatus? = nil) {
        self.library = library.map(LibraryReport.init)
        readAt = isoTime(status.readAt)
        photos = status.photos
        mediaTypes = Dictionary(uniqueKeysWithValues: status.mediaTypes.map { ($0.key.rawValue, $0.value) })
        skippedFiles = status.skippedFiles
        missingPhotos = status.missingPhotos
        unreadableFolders = status.unreadableFolders
        var tasks: [String: [String: Int]] = [:]
        var throughput: [String: Rate] = [:]
        for kind in Kind.allCases where status.counts[kind] != nil {
            tasks[kind.rawValue] = Dictionary(
                uniqueKeysWithValues: TaskState.allCases.map { ($0.rawValue, status.count(kind, $0)) }
            )
            let rate = status.rates[kind]
            throughput[kind.rawValue] = Rate(
                lastMinute: rate?.finished ?? 0,
                perSecond: ((rate?.perSecond ?? 0) * 100).rounded() / 100,
                etaSeconds: status.etaSeconds(kind).map { $0.rounded() }
            )
        }
        self.tasks = tasks
        self.throughput = throughput
        etaSeconds = status.etaSeconds.map { $0.rounded() }
        let pauses = status.paused.mapValues { "paused (\($0.reason)); `photomill resume` lets them go on" }
        waiting = Dictionary(
            uniqueKeysWithValues: status.waitingWords.merging(pauses) { $1 }.filter {
                status.count($0.key, .pending) > 0
            }
            .map { ($0.key.rawValue, $0.value) }
        )
        paused = PauseReport(paused: status.paused, changed: []).paused
        workers = status.workers.map {
            Worker(
                id: $0.id,
                host: $0.host,
                softwareVersion: $0.softwareVersion,
                state: $0.state,
                slots: $0.slots,
                inFlight: $0.inFlight,
                done: $0.done,
                failed: $0.failed,
                lastSeen: isoTime($0.lastSeen),
                secondsSinceSeen: (max(0, status.readAt - $0.lastSeen) * 10).rounded() / 10
            )
        }
        droppedMessages = status.violations
    }

    func jsonString() -> String { jsonLine(self) }

    /// " (1,200 photos, 30 RAW, 85 videos)" when the library holds more than stills.
    private var mediaTypeBreakdown: String {
        let raw = mediaTypes[MediaType.raw.rawValue] ?? 0
        let videos = mediaTypes[MediaType.video.rawValue] ?? 0
        guard raw + videos > 0 else { return "" }
        let stills = mediaTypes[MediaType.photo.rawValue] ?? 0
        return " (\(stills) stills, \(raw) RAW, \(videos) videos)"
    }

    func text() -> String {
        var lines = ["\(photos) photos\(mediaTypeBreakdown) · \(readAt)"]
        if let library { lines += library.lines() } else if skippedFiles > 0 { lines.append(skippedLine(skippedFiles)) }
        if missingPhotos > 0 {
            lines.append(
                "missing: \(missingPhotos) photos no longer found, left out below (`photomill forget --missing` removes them)"
            )
        }
        if unreadableFolders > 0 {
            lines.append("unreadable: \(unreadableFolders) folders the scan cannot list (`photomill failed`)")
        }
        lines.append(columns(["kind", "pending", "leased", "done", "failed", "per min", "ETA"]))
        for kind in Kind.allCases {
            guard let counts = tasks[kind.rawValue], let rate = throughput[kind.rawValue] else { continue }
            lines.append(
                columns(
                    [kind.rawValue] + ["pending", "leased", "done", "failed"].map { String(counts[$0] ?? 0) }
                        + [String(rate.lastMinute), rate.etaSeconds.map(duration) ?? "?"]
                )
            )
        }
        if let videos = mediaTypes[MediaType.video.rawValue], videos > 0, tasks[Kind.ocr.rawValue] != nil {
            lines.append("ocr: videos have no OCR task (\(videos) videos)")
        }
        let remaining = tasks.values.reduce(0) { $0 + ($1["pending"] ?? 0) + ($1["leased"] ?? 0) }
        if remaining > 0 {
            // Unknown when some kind with work left finished nothing in the last minute: name
            // those kinds (others may well have finished some).
            let stalled = Kind.allCases.map(\.rawValue).filter { kind in
                guard let counts = tasks[kind], (counts["pending"] ?? 0) + (counts["leased"] ?? 0) > 0 else {
                    return false
                }
                return throughput[kind]?.etaSeconds == nil
            }
            lines.append(
                "\(remaining) tasks to go; ETA "
                    + (etaSeconds.map(duration)
                        ?? "unknown (no \(stalled.joined(separator: ", ")) task finished in the last minute)")
            )
        }
        lines += Kind.allCases.compactMap { kind in
            paused[kind.rawValue].map { "paused: \(kind.rawValue) since \($0.since) (\($0.reason))" }
        }
        lines += waiting.sorted { $0.key < $1.key }.map {
            "waiting: \(tasks[$0.key]?["pending"] ?? 0) \($0.key) tasks: \($0.value)"
        }
        let connected = workers.filter { $0.state == .connected }
        lines.append("workers: \(connected.count) connected, \(workers.count - connected.count) gone")
        if !connected.isEmpty {
            // Wider than columns(): "in flight" and "last seen" fill its 9 characters.
            let cell = { (text: String) in String(repeating: " ", count: max(1, 10 - text.count)) + text }
            let row = { (cells: [String]) in
                cells[0].padding(toLength: max(10, cells[0].count), withPad: " ", startingAt: 0)
                    + cells.dropFirst().map(cell).joined()
            }
            let versions = connected.map { $0.softwareVersion ?? "?" }
            let width = (versions + ["version"]).map(\.count).max()!
            let version = { (text: String) in text.padding(toLength: width, withPad: " ", startingAt: 0) }
            lines.append(
                row(["host", "slots", "in flight", "done", "failed", "last seen"]) + "  " + version("version")
                    + "  worker"
            )
            for (worker, software) in zip(connected, versions) {
                lines.append(
                    row([
                        worker.host, String(worker.slots), String(worker.inFlight), String(worker.done),
                        String(worker.failed), String(format: "%.1fs ago", worker.secondsSinceSeen),
                    ])
                        + "  " + version(software) + "  " + worker.id
                )
            }
        }
        if !droppedMessages.isEmpty {
            let reasons = droppedMessages.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            lines.append(
                "dropped messages: \(droppedMessages.values.reduce(0, +)) (\(reasons.joined(separator: ", ")))"
            )
        }
        return terminalText(lines)
    }
}
