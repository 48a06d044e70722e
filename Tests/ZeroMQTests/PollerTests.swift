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
import Glibc
import Testing
import ZeroMQ

@Suite struct PollerTests {
    @Test func timesOutWhenNothingIsReady() throws {
        let context = try ZMQContext()
        let (router, _) = try connectedPair(context)
        var poller = Poller()
        poller.register(router)

        let clock = ContinuousClock()
        let start = clock.now
        #expect(try poller.poll(timeoutMilliseconds: 200).isEmpty)
        let elapsed = clock.now - start
        // zmq_poll rounds to the millisecond; the upper bound only catches "never returned".
        #expect(elapsed >= .milliseconds(190))
        #expect(elapsed < .seconds(5))
    }

    @Test func reportsTheReadableSocket() throws {
        let context = try ZMQContext()
        let (router, dealer) = try connectedPair(context)
        let idle = try ZMQSocket.forTest(context, .pull)
        try idle.bind("inproc://idle")
        var poller = Poller()
        poller.register(idle)
        let routerIndex = poller.register(router)

        try dealer.send([Data("ping")])
        let ready = try poller.poll(timeoutMilliseconds: 5000)
        #expect(ready == [Poller.Ready(index: routerIndex, events: .readable)])
        #expect(try router.events.contains(.readable))
    }

    @Test func reportsWritableOnlyWhenAsked() throws {
        let context = try ZMQContext()
        let (_, dealer) = try connectedPair(context)
        var poller = Poller()
        let index = poller.register(dealer, for: [])
        #expect(try poller.poll(timeoutMilliseconds: 0).isEmpty)
        poller.setInterest([.readable, .writable], at: index)
        #expect(try poller.poll(timeoutMilliseconds: 5000) == [Poller.Ready(index: index, events: .writable)])
    }

    @Test func watchesFileDescriptors() throws {
        let context = try ZMQContext()
        let (router, _) = try connectedPair(context)
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { for end in pipeEnds { Glibc.close(end) } }
        var poller = Poller()
        poller.register(router)
        let pipeIndex = poller.register(fileDescriptor: pipeEnds[0])

        #expect(write(pipeEnds[1], "x", 1) == 1)
        #expect(try poller.poll(timeoutMilliseconds: 5000) == [Poller.Ready(index: pipeIndex, events: .readable)])
    }

    @Test func closedSocketIsAnError() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket.forTest(context, .dealer)
        var poller = Poller()
        poller.register(socket)
        socket.close()
        let error = #expect(throws: ZMQError.self) { try poller.poll(timeoutMilliseconds: 0) }
        #expect(error?.code == .notSocket)
    }
}
