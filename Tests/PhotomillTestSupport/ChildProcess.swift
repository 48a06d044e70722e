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

import Foundation
import PhotomillCore

/// A program running beside the test (a coordinator, a worker, a Python helper): its
/// standard output and error go to files the test reads while it runs, so neither can
/// fill a pipe and stop it. Its end is an event (`wait`), never polled; a line it writes
/// is waited for with a deadline (`waitForOutput`). Killed, if still running, when the
/// value goes.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked: `process` is set up in `init` and then only read (Process is thread-safe
    // for the calls made here); `ended` is a DispatchGroup, itself thread-safe.
    private let process = Process()
    private let ended = DispatchGroup()
    /// The signals the program handles itself once it has started, which `signal` waits
    /// for: SIGTERM and SIGINT for a photomill `coordinator`, `run` or `worker`, SIGHUP too
    /// for a coordinator (docs/reliability.md, docs/operations.md).
    private let handled: Set<Int32>
    public let stdoutURL: URL
    public let stderrURL: URL

    /// `environment` adds to (or overrides) this process's environment.
    public init(
        _ executable: URL,
        _ arguments: [String],
        in directory: URL? = nil,
        environment: [String: String] = [:]
    ) throws {
        process.executableURL = executable
        process.arguments = arguments
        let command = executable.lastPathComponent == "photomill" ? arguments.first : nil
        handled =
            command == "coordinator"
            ? [SIGTERM, SIGINT, SIGHUP] : ["run", "worker"].contains(command) ? [SIGTERM, SIGINT] : []
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let name = executable.lastPathComponent
        stdoutURL = temporaryFile("\(name)-out", extension: "log")
        stderrURL = temporaryFile("\(name)-err", extension: "log")
        for url in [stdoutURL, stderrURL] { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardInput = FileHandle.nullDevice
        ended.enter()
        process.terminationHandler = { [ended] _ in ended.leave() }
        do {
            try process.run()
        } catch {
            ended.leave()
            throw error
        }
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    public var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Sends signal `number`. A signal the program handles (`handled`) goes once the
    /// process has its own handler for it (or has ended):
    /// in the milliseconds of its start before its first line runs, no program can catch a
    /// signal, and its default action ends it (a test under load once stopped a worker it
    /// had started a moment before: "exit 15"). The wait is on /proc, not on time.
    public func signal(_ number: Int32) {
        if handled.contains(number) { _ = eventually(seconds: 60) { catches(number) || !isRunning } }
        kill(process.processIdentifier, number)
    }

    /// Whether the process has a handler of its own for signal `number` (`SigCgt` in
    /// /proc/PID/status, proc(5): a hexadecimal mask, bit `number - 1`).
    public func catches(_ number: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
            let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << UInt64(number - 1)) != 0
    }

    /// Waits up to `seconds` for the process to end; returns its status (the signal's
    /// number if a signal ended it), or nil if it is still running.
    @discardableResult
    public func wait(seconds: Double) -> Int32? {
        guard ended.wait(timeout: .now() + seconds) == .success else { return nil }
        return process.terminationStatus
    }

    /// Whether the process ended by a signal (after `wait` returned a status).
    public var wasSignalled: Bool { !process.isRunning && process.terminationReason == .uncaughtSignal }

    /// Waits up to `seconds` until its standard error (or output) holds `text`; false if it
    /// did not by then, or ended without writing it.
    public func waitForOutput(containing text: String, on stream: Stream = .stderr, seconds: Double) -> Bool {
        let read = { stream == .stderr ? self.stderr : self.stdout }
        return eventually(seconds: seconds) { read().contains(text) || !isRunning } && read().contains(text)
    }

    public enum Stream: Sendable { case stdout, stderr }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: stdoutURL)
        try? FileManager.default.removeItem(at: stderrURL)
    }
}
