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

/// One command run to completion: wall time, the CPU it and its descendants used, and the
/// peak resident memory of the process and of its children (sampled from /proc).
struct Measured {
    var seconds: Double
    var cpuSeconds: Double
    var status: Int32
    var output: String
    /// Peak RSS in MB of the process itself and of the largest of its child processes.
    var peakRSS: Double
    var peakChildRSS: Double
}

enum Spawn {
    /// Runs `arguments` (the first is looked up on PATH unless it holds a slash).
    static func run(
        _ arguments: [String],
        environment extra: [String: String] = [:],
        captureOutput: Bool = false
    ) throws -> Measured {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0].contains("/") ? arguments[0] : "/usr/bin/env")
        process.arguments = arguments[0].contains("/") ? Array(arguments.dropFirst()) : arguments
        var environment = ProcessInfo.processInfo.environment
        environment.merge(extra) { $1 }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = captureOutput ? output : FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let cpuBefore = childrenCPUSeconds()
        let start = MonotonicInstant.now()
        try process.run()
        let sampler = RSSSampler(root: process.processIdentifier)
        sampler.start()
        let data = captureOutput ? output.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        let seconds = MonotonicInstant.now() - start
        sampler.stop()
        return Measured(
            seconds: seconds,
            cpuSeconds: childrenCPUSeconds() - cpuBefore,
            status: process.terminationStatus,
            output: String(decoding: data, as: UTF8.self),
            peakRSS: sampler.rootPeak,
            peakChildRSS: sampler.childPeak
        )
    }

    /// Runs a shell command line with `sh -c`.
    static func shell(_ line: String, environment: [String: String] = [:]) throws -> Measured {
        try run(["/bin/sh", "-c", line], environment: environment)
    }
}

/// Runs `sample` on a thread of its own every 50 ms until `stop()`.
final class Every50ms: @unchecked Sendable {
    // @unchecked: `thread` is set once, in `init`.
    private let stopped = DispatchSemaphore(value: 0)
    private var thread: OwnedThread<Void>?

    init(_ sample: @escaping @Sendable () -> Void) {
        thread = OwnedThread(name: "pm-sampler") { [stopped] in
            repeat { sample() } while stopped.wait(timeout: .now() + 0.05) == .timedOut
        }
    }

    /// Returns once the sampling thread has stopped.
    func stop() {
        stopped.signal()
        thread?.join()
    }
}

/// Reads VmHWM (the kernel's own peak RSS) of a process and of its direct children every
/// 50 ms. VmHWM only grows, so the last reading before a process exits is its peak.
final class RSSSampler: @unchecked Sendable {
    // @unchecked: the peaks are guarded by `lock`.
    private let root: Int32
    private let lock = NSLock()
    private var peaks: (root: Double, child: Double) = (0, 0)
    private var sampling: Every50ms?

    init(root: Int32) { self.root = root }

    var rootPeak: Double { lock.withLock { peaks.root } }
    var childPeak: Double { lock.withLock { peaks.child } }

    func start() {
        sampling = Every50ms { [self] in sample() }
    }

    func stop() {
        sampling?.stop()
    }

    private func sample() {
        let own = Self.highWaterMark(root)
        var child = 0.0
        for pid in Self.children(of: root) { child = max(child, Self.highWaterMark(pid)) }
        lock.withLock {
            peaks.root = max(peaks.root, own)
            peaks.child = max(peaks.child, child)
        }
    }

    private static func children(of parent: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(parent)/task")) ?? []
        return tasks.flatMap { task -> [Int32] in
            let text = (try? String(contentsOfFile: "/proc/\(parent)/task/\(task)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    private static func highWaterMark(_ pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kB = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kB / 1024
    }
}
