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
import Testing
import ZeroMQ

/// What a send does when it cannot deliver: the behaviour the coordinator's credit flow
/// relies on, asserted against the real libzmq.
@Suite struct FlowControlTests {
    @Test func routerMandatoryRejectsUnknownPeer() throws {
        let context = try ZMQContext()
        let router = try ZMQSocket.forTest(context, .router)
        try router.set(.routerMandatory, to: true)
        try router.bind("inproc://mandatory")
        let error = #expect(throws: ZMQError.self) { try router.send([Data("nobody"), Data("job")]) }
        #expect(error?.name == "EHOSTUNREACH")
        #expect(error?.code == .hostUnreachable)
        #expect(error?.description.hasPrefix("send frame 1 of 2: ") == true)
    }

    @Test func dealerWithoutConnectionRefusesAtOnce() throws {
        let context = try ZMQContext()
        let dealer = try ZMQSocket.forTest(context, .dealer)
        // No bind or connect, hence no pipe: libzmq has nowhere to queue.
        #expect(try dealer.send([Data("x")]) == false)
    }

    @Test func dealerQueuesUpToHighWaterMarkWhileUnconnected() throws {
        let context = try ZMQContext()
        let dealer = try ZMQSocket.forTest(context, .dealer)
        try dealer.set(.sendHighWaterMark, to: 5)
        // Port 1 refuses connections, but connect() creates the pipe at once, so libzmq
        // queues for the peer it hopes to reach, up to the high-water mark.
        try dealer.connect("tcp://127.0.0.1:1")
        var queued = 0
        while try dealer.send([Data("job"), Data("\(queued)")]) {
            queued += 1
            if queued > 100 { break }
        }
        #expect(queued == 5)
    }

    @Test func immediateDealerRefusesUntilConnected() throws {
        let context = try ZMQContext()
        let dealer = try ZMQSocket.forTest(context, .dealer)
        try dealer.set(.immediate, to: true)
        try dealer.connect("tcp://127.0.0.1:1")
        #expect(try dealer.send([Data("x")]) == false)
    }

    @Test func routerMandatoryReportsFullPeerAsFalse() throws {
        let context = try ZMQContext()
        let (router, dealer) = try connectedPair(context)
        try router.set(.routerMandatory, to: true)
        try router.set(.sendHighWaterMark, to: 2)
        try dealer.set(.receiveHighWaterMark, to: 2)
        // The router learns the peer from its first message.
        try dealer.send([Data("hello")])
        _ = try #require(try router.receive())

        var queued = 0
        while try router.send([Data("dealer"), Data(count: 1000)]) {
            queued += 1
            if queued > 10_000 { break }
        }
        // Full, not unreachable: false rather than a throw. The count includes what the
        // I/O thread already moved into the kernel's socket buffers.
        #expect(queued >= 2 && queued < 10_000)
        #expect(try dealer.receive()?.count == 1)
    }
}
