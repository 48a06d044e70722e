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

@Suite struct LimitTests {
    @Test func oversizedFrameDisconnectsOnlyItsSender() throws {
        let context = try ZMQContext()
        let router = try ZMQSocket.forTest(context, .router)
        try router.set(.maxMessageSize, to: 1024)
        #expect(try router.get(.maxMessageSize) == 1024)
        try router.bind("tcp://127.0.0.1:*")
        let endpoint = try router.lastEndpoint

        let big = try ZMQSocket.forTest(context, .dealer)
        try big.set(.routingId, to: Data("big"))
        try big.connect(endpoint)
        try big.send([Data(count: 2048)])

        let small = try ZMQSocket.forTest(context, .dealer)
        try small.set(.routingId, to: Data("small"))
        try small.connect(endpoint)
        try small.send([Data(count: 1024)])

        #expect(try router.receive() == [Data("small"), Data(count: 1024)])
        try router.set(.receiveTimeout, to: 500)
        #expect(try router.receive() == nil)
    }

    @Test func messageWithTooManyFramesIsDroppedAndReported() throws {
        let context = try ZMQContext()
        let (router, dealer) = try connectedPair(context)
        router.maxFrames = 4
        try dealer.send((0..<10).map { Data("frame \($0)") })
        try dealer.send([Data("a"), Data("b"), Data("c")])

        let error = #expect(throws: ZMQError.self) { try router.receive() }
        // The routing id frame counts too.
        #expect(error?.discardedFrameCount == 11)
        #expect(error?.code == .messageTooLarge)
        #expect(try router.receive() == [Data("dealer"), Data("a"), Data("b"), Data("c")])
    }
}
