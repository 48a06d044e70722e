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

#if PHOTOMILL_FAULT_INJECTION
import Foundation
import Synchronization

/// Test-only faults, switched on by environment variables, so that the reliability tests
/// (docs/reliability.md) can make a worker misbehave on one named file, which no real
/// photo does reliably. Compiled into debug builds only (the tests'; Package.swift defines
/// PHOTOMILL_FAULT_INJECTION for them): a release build, the one scripts/package-deb.sh
/// ships, has none of it, and no environment variable makes it misbehave.
///
/// - `PHOTOMILL_FAULT_CRASH_ON=NAME`: the worker process dies (SIGKILL to itself, as
///   abruptly as a crash in a decoder) when it starts a job whose file name is NAME: a
///   "poison photo".
/// - `PHOTOMILL_FAULT_HANG_ON=NAME:SECONDS`: the slot thread sleeps SECONDS before
///   processing NAME, while the rest of the worker (its socket thread) carries on: a job
///   hung in a decoder. NAME `*` slows every other job down (a slow worker); entries are
///   separated by commas (`IMG_0007.jpg:8,*:0.2`). `NAME:@PATH` hangs until the file
///   PATH exists: a test lets the job go on when it has seen what it waits for.
/// - `PHOTOMILL_FAULT_CRASH_WITH_RESULTS=N`: the worker holds back the results its slots
///   finish, and dies (SIGKILL) once it holds N of them, none sent: a worker killed with a
///   batch of results not yet sent (docs/reliability.md).
/// - `PHOTOMILL_FAULT_EXIT_AT_START=STATUS`: the worker exits with STATUS before it
///   connects: a worker that cannot start (its binary replaced by an upgrade, a library
///   missing), which `run` must not restart for ever.
enum FaultInjection {
    static let crashOn: String? = ProcessInfo.processInfo.environment["PHOTOMILL_FAULT_CRASH_ON"]
    enum Hang {
        case seconds(Double)
        case untilExists(String)
    }

    static let hangOn: [(name: String, hang: Hang)] = {
        let value = ProcessInfo.processInfo.environment["PHOTOMILL_FAULT_HANG_ON"] ?? ""
        return value.split(separator: ",").compactMap { entry in
            if let at = entry.range(of: ":@") {
                return (String(entry[..<at.lowerBound]), .untilExists(String(entry[at.upperBound...])))
            }
            guard let colon = entry.lastIndex(of: ":"), let seconds = Double(entry[entry.index(after: colon)...]) else {
                return nil
            }
            return (String(entry[..<colon]), .seconds(seconds))
        }
    }()

    static let crashWithResults: Int? = ProcessInfo.processInfo.environment["PHOTOMILL_FAULT_CRASH_WITH_RESULTS"]
        .flatMap { Int($0) }
    private static let held = Mutex(0)

    /// Called by the socket thread (alone) with the results the slots finished: passes
    /// them on, or, under `PHOTOMILL_FAULT_CRASH_WITH_RESULTS`, keeps them from the wire
    /// until it dies with them.
    static func holdingResults<Finished>(_ finished: [Finished]) -> [Finished] {
        guard let crashWithResults else { return finished }
        let total = held.withLock { held in
            held += finished.count
            return held
        }
        if total >= crashWithResults {
            FileHandle.standardError.write(
                Data(
                    "photomill worker: PHOTOMILL_FAULT_CRASH_WITH_RESULTS: dying with \(total) results not sent\n".utf8
                )
            )
            kill(getpid(), SIGKILL)
        }
        return []
    }

    static func exitAtStart() {
        guard let status = ProcessInfo.processInfo.environment["PHOTOMILL_FAULT_EXIT_AT_START"].flatMap({ Int32($0) })
        else { return }
        FileHandle.standardError.write(
            Data("photomill worker: PHOTOMILL_FAULT_EXIT_AT_START: exiting with status \(status)\n".utf8)
        )
        exit(status)
    }

    /// Called by a slot thread before it processes `path`.
    static func beforeJob(path: String) {
        guard crashOn != nil || !hangOn.isEmpty else { return }
        let name = (path as NSString).lastPathComponent
        if name == crashOn {
            FileHandle.standardError.write(Data("photomill worker: PHOTOMILL_FAULT_CRASH_ON: dying on \(name)\n".utf8))
            kill(getpid(), SIGKILL)
        }
        // The first entry that names the file, else the first `*`.
        switch (hangOn.first { $0.name == name } ?? hangOn.first { $0.name == "*" })?.hang {
        case .seconds(let seconds)?:
            Thread.sleep(forTimeInterval: seconds)
        case .untilExists(let path)?:
            while !FileManager.default.fileExists(atPath: path) { Thread.sleep(forTimeInterval: 0.05) }
        case nil:
            break
        }
    }
}
#endif
