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
import Testing
import ZeroMQ

/// The socket monitor over real sockets: the events zmq_socket_monitor(3) documents, with
/// their values and endpoint, decoded from libzmq's two frames.
@Suite struct MonitorTests {
    /// Every event until `last` arrives (or 5 s pass).
    func events(_ monitor: SocketMonitor, until last: MonitorEvent.Kind) throws -> [MonitorEvent] {
        var seen: [MonitorEvent] = []
        let waited = Stopwatch()
        while waited.seconds < 5, seen.last?.kind != last {
            var poller = Poller()
            poller.register(monitor.socket)
            _ = try poller.poll(timeoutMilliseconds: 100)
            while let event = try monitor.next() { seen.append(event) }
        }
        return seen
    }

    @Test func aConnectionToNobodyIsRetriedAndOneToAPeerSucceeds() throws {
        let context = try ZMQContext()
        // A port held by a TCP socket that never listens: refused.
        let holder = try ClosedPort()
        defer { withExtendedLifetime(holder) {} }
        let endpoint = "tcp://127.0.0.1:\(holder.port)"

        let lonely = try ZMQSocket(context: context, type: .dealer)
        try lonely.set(.linger, to: 0)
        let lonelyMonitor = try lonely.monitor()
        try lonely.connect(endpoint)
        let retried = try events(lonelyMonitor, until: .connectRetried)
        #expect(retried.map(\.kind) == [.connectDelayed, .closed, .connectRetried], "\(retried)")
        #expect(retried.allSatisfy { $0.endpoint == endpoint })
        // The value of CONNECT_RETRIED is the reconnect interval in milliseconds (libzmq's default, 100, or more).
        #expect((100...1000).contains(retried.last?.value ?? 0))
        lonely.close()
        lonelyMonitor.close()

        let server = try ZMQSocket(context: context, type: .router)
        try server.set(.linger, to: 0)
        try server.bind("tcp://127.0.0.1:*")
        let client = try ZMQSocket(context: context, type: .dealer)
        try client.set(.linger, to: 0)
        let monitor = try client.monitor()
        try client.connect(try server.lastEndpoint)
        let connected = try events(monitor, until: .handshakeSucceeded)
        #expect(connected.map(\.kind) == [.connectDelayed, .connected, .handshakeSucceeded], "\(connected)")
        client.close()
        monitor.close()
        server.close()
    }
}
