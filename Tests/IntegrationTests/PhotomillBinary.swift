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
import PhotomillTestSupport

/// The built `photomill` executable, run as a separate process.
enum PhotomillBinary {
    /// Beside the test bundle: SwiftPM builds every product into the same folder.
    static let url: URL = {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = me.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("photomill")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue
            {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        fatalError("no built photomill beside \(me.path); run `swift build` first")
    }()

    typealias Outcome = ToolOutput

    /// `launcher`: a command that runs photomill, given in full (`Unprivileged.launcher`).
    static func run(
        _ arguments: [String],
        in directory: URL? = nil,
        environment: [String: String] = [:],
        launcher: [String] = []
    ) throws -> Outcome {
        let command = launcher.isEmpty ? [url.path] : launcher
        return try Tool.run(command[0], Array(command.dropFirst()) + arguments, in: directory, environment: environment)
    }

    /// `inspect --json` output, one decoded object per line.
    static func jsonLines(_ outcome: Outcome) throws -> [[String: Any]] {
        try outcome.lines.map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CocoaError(.coderReadCorrupt)
            }
            return object
        }
    }
}

/// A test script (Python) run to its end: its exit status and its standard output and
/// error (one after the other), which are also printed, for the test log.
func runScript(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let run = try Tool.run(executable, arguments)
    let text = run.stdout + run.stderr
    print(text, terminator: "")
    return (run.status, text)
}
