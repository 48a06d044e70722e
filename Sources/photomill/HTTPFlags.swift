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
import Dashboard
import Foundation
import PhotomillCore

/// `--http`, `--http-token-file`, `--no-http`: the dashboard, its API and /metrics, for `run`
/// and `coordinator` (docs/operations.md, "The dashboard").
struct HTTPFlags: ParsableArguments {
    @Option(
        name: .customLong("http"),
        help: ArgumentHelp(
            "Serve the dashboard, its API and /metrics here (default: 127.0.0.1:\(HTTPAddress.defaultPort), loopback; port 0: any free port). Any other address needs --http-token-file.",
            valueName: "ADDRESS:PORT"
        )
    )
    var address: String?

    @Option(
        name: .customLong("http-token-file"),
        help: ArgumentHelp(
            "A file whose first line is the bearer token the API and /metrics want (mode 0600); required off loopback.",
            valueName: "FILE"
        )
    )
    var tokenFile: String?

    @Flag(name: .customLong("no-http"), help: "Serve no dashboard, API or /metrics.")
    var off = false

    func validate() throws {
        if off && (address != nil || tokenFile != nil) {
            throw ValidationError("--no-http turns the dashboard off: give it without --http and --http-token-file")
        }
        let parsed = try parsedAddress()
        if !parsed.isLoopback && tokenFile == nil {
            throw ValidationError(
                """
                --http \(parsed) is reachable from other hosts: give --http-token-file FILE with a secret token \
                (e.g. `head -c 24 /dev/urandom | base64 > token && chmod 600 token`), or listen on 127.0.0.1
                """
            )
        }
    }

    private func parsedAddress() throws -> HTTPAddress {
        guard let address else { return .loopback }
        do {
            return try HTTPAddress(parsing: address)
        } catch {
            throw ValidationError("--http \(error)")
        }
    }

    /// `configuration()`, or exit 64 with the reason (an unreadable or too open token file).
    func checkedConfiguration(command: String) throws -> DashboardServer.Configuration? {
        do {
            return try configuration()
        } catch {
            printError("photomill \(command): \(error)")
            throw ExitCode(64)
        }
    }

    /// Nil with `--no-http`.
    func configuration() throws -> DashboardServer.Configuration? {
        guard !off else { return nil }
        let token = try tokenFile.map(Self.readToken)
        return DashboardServer.Configuration(address: try parsedAddress(), token: token, required: address != nil)
    }

    private static func readToken(_ path: String) throws -> String {
        var info = stat()
        let data: Data
        do {
            data = try RegularFile.contents(of: path, upTo: 64 << 10)
        } catch {
            throw ValidationError("--http-token-file \(path): cannot read it: \(error.cause)")
        }
        guard stat(path, &info) == 0 else {
            throw ValidationError("--http-token-file \(path): cannot read it: \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw ValidationError(
                "--http-token-file \(path): a token must not be readable by group or others (mode \(String(info.st_mode & 0o777, radix: 8))); run chmod 600 \(path)"
            )
        }
        let token =
            String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard token.utf8.count >= 16, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw ValidationError(
                "--http-token-file \(path): the first line must be a token of at least 16 printable characters without spaces"
            )
        }
        return token
    }
}
