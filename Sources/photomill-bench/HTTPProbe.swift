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

/// A plain HTTP/1.1 GET over a loopback socket, timed: what a scraper or the page sends,
/// without a client library between the bench and the server.
enum HTTPProbe {
    struct Answer {
        var status: Int
        var bytes: Int
        var seconds: Double
        /// The whole response, head and body.
        var text: String
    }

    static func get(port: Int, path: String) throws -> Answer {
        let started = MonotonicInstant.now()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            throw BenchError("connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard write(fd, request, request.count) == request.count else {
            throw BenchError("write: \(String(cString: strerror(errno)))")
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            response += buffer[0..<count]
        }
        let head = String(decoding: response.prefix(12), as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return Answer(
            status: status,
            bytes: response.count,
            seconds: MonotonicInstant.now() - started,
            text: String(decoding: response, as: UTF8.self)
        )
    }
}

/// The load of an open dashboard and a Prometheus server on it, as the page and a 1 s
/// scrape interval make it: /metrics every second, the status every 2 s, the failures and
/// the chart every 5 s. Every answer must be a 200; the /metrics times are kept.
final class DashboardLoad: @unchecked Sendable {
    // @unchecked: `metricsSeconds`, `failure` and `stopping` are guarded by `lock`.
    private let lock = NSLock()
    private var stopping = false
    private var metricsSeconds: [Double] = []
    private var failure: (any Error)?
    private var thread: OwnedThread<Void>?

    init(port: Int) {
        thread = OwnedThread(name: "pm-bench-http") { [self] in
            var tick = 0
            while !lock.withLock({ stopping }) {
                do {
                    let scrape = try Self.expectOK(HTTPProbe.get(port: port, path: "/metrics"), "/metrics")
                    lock.withLock { metricsSeconds.append(scrape.seconds) }
                    if tick % 2 == 0 {
                        _ = try Self.expectOK(HTTPProbe.get(port: port, path: "/api/v1/status"), "status")
                    }
                    if tick % 5 == 0 {
                        _ = try Self.expectOK(
                            HTTPProbe.get(port: port, path: "/api/v1/failed?limit=20&order=newest"),
                            "failed"
                        )
                        _ = try Self.expectOK(HTTPProbe.get(port: port, path: "/api/v1/throughput"), "throughput")
                    }
                } catch {
                    lock.withLock { failure = error }
                }
                tick += 1
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    /// Stops the load; the /metrics times, or the first failure.
    func stop() throws -> [Double] {
        lock.withLock { stopping = true }
        thread?.join()
        return try lock.withLock {
            if let failure { throw failure }
            return metricsSeconds
        }
    }

    private static func expectOK(_ answer: HTTPProbe.Answer, _ what: String) throws -> HTTPProbe.Answer {
        guard answer.status == 200 else { throw BenchError("\(what) answered \(answer.status)") }
        return answer
    }
}
