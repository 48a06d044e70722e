import ArgumentParser
import Catalog
import Foundation

extension Photomill {
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show counts per kind and state, and the workers (works during a run and after it).")

        @OptionGroup var catalog: CatalogFlags

        @Flag(help: "Print one JSON object.")
        var json = false

        func run() throws {
            let status = try catalog.open(.readOnly).status()
            if json {
                print(StatusReport(status).jsonString())
            } else {
                print(StatusReport(status).text())
            }
        }
    }
}

/// `status --json`: {"photos": N, "tasks": {"hash": {"pending": N, …}, …}, "workers": […]}.
struct StatusReport: Encodable {
    struct Worker: Encodable {
        let id: String
        let host: String
        let state: String
        let slots: Int
        let inFlight: Int
        let done: Int
        let failed: Int
        let lastSeen: String
    }
    let photos: Int
    let tasks: [String: [String: Int]]
    let workers: [Worker]
    /// Kind → why its pending tasks wait for a worker.
    let waiting: [String: String]
    /// Messages the coordinator dropped, by reason (docs/reliability.md).
    let droppedMessages: [String: Int]

    init(_ status: CatalogStatus) {
        photos = status.photos
        var tasks: [String: [String: Int]] = [:]
        for kind in TaskKind.allCases where status.counts[kind] != nil {
            tasks[kind.rawValue] = Dictionary(uniqueKeysWithValues: TaskState.allCases.map { ($0.rawValue, status.count(kind, $0)) })
        }
        self.tasks = tasks
        waiting = Dictionary(uniqueKeysWithValues: status.waiting.filter { status.count($0.key, .pending) > 0 }.map { ($0.key.rawValue, $0.value) })
        workers = status.workers.map {
            Worker(id: $0.id, host: $0.host, state: $0.state, slots: $0.slots, inFlight: $0.inFlight, done: $0.done,
                   failed: $0.failed, lastSeen: Date(timeIntervalSince1970: $0.lastSeen).formatted(.iso8601))
        }
        droppedMessages = status.violations
    }

    func jsonString() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    func text() -> String {
        var lines = ["\(photos) photos"]
        lines.append(columns(["kind", "pending", "leased", "done", "failed"]))
        for kind in TaskKind.allCases {
            guard let counts = tasks[kind.rawValue] else { continue }
            lines.append(columns([kind.rawValue] + ["pending", "leased", "done", "failed"].map { String(counts[$0] ?? 0) }))
        }
        lines += waiting.sorted { $0.key < $1.key }.map { "waiting: \(tasks[$0.key]?["pending"] ?? 0) \($0.key) tasks: \($0.value)" }
        let connected = workers.filter { $0.state == "connected" }
        lines.append("workers: \(connected.count) connected, \(workers.count - connected.count) gone")
        for worker in workers {
            lines.append("  \(worker.id) \(worker.host) \(worker.state) slots \(worker.slots) in flight \(worker.inFlight) done \(worker.done) failed \(worker.failed) last seen \(worker.lastSeen)")
        }
        if !droppedMessages.isEmpty {
            let reasons = droppedMessages.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            lines.append("dropped messages: \(droppedMessages.values.reduce(0, +)) (\(reasons.joined(separator: ", ")))")
        }
        return lines.joined(separator: "\n")
    }
}
