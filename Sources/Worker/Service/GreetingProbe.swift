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

/// Asks a ZeroMQ peer which security mechanism it runs, from the greeting it sends to
/// anyone who connects (ZMTP 3, rfc.zeromq.org/spec/23: a 10-byte signature, the version,
/// then the mechanism's name in 20 bytes). A CURVE worker facing a coordinator without
/// CURVE is, half of the time, only told that the peer hung up, exactly as when its
/// --server-key is wrong (ConnectionDiagnosis); the greeting tells the two apart.
/// Blocking (up to `timeout` per step): called by the worker's socket thread while it has
/// no connection, once per cause.
enum GreetingProbe {
    /// "NULL", "PLAIN" or "CURVE"; nil when the peer cannot be reached or sends no greeting.
    static func mechanism(of endpoint: String, timeout: Double = 1) -> String? {
        guard endpoint.hasPrefix("tcp://") else { return nil }
        let address = endpoint.dropFirst("tcp://".count)
        guard let colon = address.lastIndex(of: ":") else { return nil }
        let host = String(address[..<colon].trimmingPrefix("[").prefix { $0 != "]" })
        let port = String(address[address.index(after: colon)...])
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, port, &hints, &list) == 0, let info = list?.pointee else { return nil }
        defer { freeaddrinfo(list) }
        let descriptor = socket(info.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(descriptor, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
        guard connect(descriptor, info.ai_addr, info.ai_addrlen) == 0 else { return nil }
        // Our signature and major version 3: the peer then sends the rest of its greeting.
        let hello: [UInt8] = [0xFF, 0, 0, 0, 0, 0, 0, 0, 1, 0x7F, 3]
        guard send(descriptor, hello, hello.count, Int32(MSG_NOSIGNAL)) == hello.count else { return nil }
        var greeting = [UInt8](repeating: 0, count: 64)
        var count = 0
        while count < 32 {
            let read = greeting.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + count, 64 - count, 0) }
            guard read > 0 else { return nil }
            count += read
        }
        guard greeting[0] == 0xFF, greeting[9] == 0x7F else { return nil }
        return String(decoding: greeting[12..<32].prefix { $0 != 0 }, as: UTF8.self)
    }
}
