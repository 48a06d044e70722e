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

/// What a finished command wrote and how it ended.
public struct ToolOutput: Sendable {
    public let status: Int32
    /// Standard output, as bytes.
    public let data: Data
    public let stderr: String

    /// Standard output, as text.
    public var stdout: String { String(decoding: data, as: UTF8.self) }
    public var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// A command that failed: its words and what it said on stderr.
public struct ToolFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Outside programs the tests make fixtures with and take expected values from (exiftool,
/// ffmpeg, the vips command, Python…; scripts/install-deps.sh installs them all), and the
/// built `photomill` itself.
public enum Tool {
    /// The executable `name` would run from `$PATH`, if any; for `python3`, the interpreter
    /// itself (`python3Interpreter`).
    public static func path(of name: String) -> String? {
        name == "python3" ? python3Interpreter : lookUp(name)
    }

    private static func lookUp(_ name: String) -> String? {
        ProcessInfo.processInfo.environment["PATH", default: "/usr/bin:/bin"].split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The interpreter the `python3` on `$PATH` runs (its `sys.executable`), asked once: a
    /// version manager's `python3` is a shim (pyenv's, a bash script running several
    /// programs, costs as much CPU again as Python's own start), and the tests start Python
    /// hundreds of times (picture comparisons, fixtures, readers of their own). The same
    /// interpreter, so the same packages (imagehash, Playwright).
    private static let python3Interpreter: String? = {
        guard let found = lookUp("python3") else { return nil }
        guard let asked = try? run(found, ["-c", "import sys; print(sys.executable)"]), asked.status == 0 else {
            return found
        }
        let executable = asked.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return FileManager.default.isExecutableFile(atPath: executable) ? executable : found
    }()

    public static func isAvailable(_ name: String) -> Bool { path(of: name) != nil }

    public static func allAvailable(_ names: String...) -> Bool { names.allSatisfy(isAvailable) }

    /// Runs `tool` (a name looked up in `$PATH`, or a path) to its end. Both streams are
    /// read as they come, so neither can fill its pipe and block the child; `input`, if
    /// given, is its standard input (else /dev/null).
    public static func run(
        _ tool: String,
        _ arguments: [String],
        in directory: URL? = nil,
        environment: [String: String] = [:]
    ) throws -> ToolOutput {
        guard let executable = tool.contains("/") ? tool : path(of: tool) else {
            throw ToolFailure("\(tool) is not installed (not in $PATH; scripts/install-deps.sh installs it)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // stderr on a thread of its own while this one reads stdout.
        let errors = OwnedThread(name: "test-stderr") { readToEnd(err.fileHandleForReading) }
        let data = readToEnd(out.fileHandleForReading)
        process.waitUntilExit()
        return ToolOutput(
            status: process.terminationStatus,
            data: data,
            stderr: String(decoding: errors.join(), as: UTF8.self)
        )
    }

    /// Everything until end of file, a read interrupted by a signal (another test's child
    /// exiting) read again: Foundation's `readDataToEndOfFile` traps on EINTR instead.
    public static func readToEnd(_ handle: FileHandle) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
                continue
            }
            if count < 0 && errno == EINTR { continue }
            return data
        }
    }

    /// `run`'s standard output; a non-zero exit throws, naming the command and its stderr.
    @discardableResult
    public static func output(
        _ tool: String,
        _ arguments: [String],
        in directory: URL? = nil,
        environment: [String: String] = [:]
    ) throws -> String {
        let result = try run(tool, arguments, in: directory, environment: environment)
        guard result.status == 0 else {
            throw ToolFailure(
                "\(([tool] + arguments).joined(separator: " ")) exited \(result.status): \(result.stderr)"
            )
        }
        return result.stdout
    }

    /// `output`, trimmed of the white space around it (a `-s3` value, a hash, a name).
    public static func value(_ tool: String, _ arguments: [String]) throws -> String {
        try output(tool, arguments).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
