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

/// Where the dashboard listens: `--http ADDRESS:PORT` (`127.0.0.1:9380`, `[::1]:9380`,
/// `0.0.0.0:9380`, `localhost:0` for any free port).
public struct HTTPAddress: Sendable, Hashable, CustomStringConvertible {
    /// An IPv4 or IPv6 address (without brackets) or a host name.
    public var host: String
    public var port: Int

    public static let defaultPort = 9380
    /// Loopback only: nothing off this host can reach it, so it needs no token.
    public static let loopback = HTTPAddress(host: "127.0.0.1", port: defaultPort)

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public init(parsing text: String) throws(ParseError) {
        let host: Substring
        let port: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(after: close)...].drop { $0 == ":" }
            guard text[text.index(after: close)...].hasPrefix(":") else {
                throw ParseError(
                    description: "'\(text)' has no port: give ADDRESS:PORT, e.g. [::1]:\(Self.defaultPort)"
                )
            }
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
                throw ParseError(
                    description:
                        "'\(text)' is not ADDRESS:PORT, e.g. 127.0.0.1:\(Self.defaultPort) (IPv6 in brackets: [::1]:\(Self.defaultPort))"
                )
            }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else {
            throw ParseError(
                description:
                    "'\(text)' names no address: give e.g. 127.0.0.1:\(port), or 0.0.0.0:\(port) for every interface (with --http-token-file)"
            )
        }
        guard let number = Int(port), (0...65_535).contains(number) else {
            throw ParseError(description: "'\(text)': the port must be a number from 0 to 65535 (0: any free port)")
        }
        self.init(host: String(host), port: number)
    }

    /// Whether only this host can connect: 127.0.0.0/8, ::1 or `localhost`.
    public var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1 && UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Whether a request's Host header names this machine's loopback (any port), which is
    /// all a page on loopback may be asked through: another name resolving to 127.0.0.1 is
    /// how a web page elsewhere would reach it (DNS rebinding).
    static func isLoopbackAuthority(_ authority: String) -> Bool {
        let host: Substring
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
        } else {
            host = authority.split(separator: ":", maxSplits: 1).first ?? ""
        }
        return HTTPAddress(host: host.lowercased(), port: 0).isLoopback
    }
}
