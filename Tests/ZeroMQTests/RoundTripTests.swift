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

@Suite struct RoundTripTests {
    @Test(arguments: Transport.allCases)
    func routerDealerMultipart(over transport: Transport) throws {
        let context = try ZMQContext()
        let router = try ZMQSocket.forTest(context, .router)
        let dealer = try ZMQSocket.forTest(context, .dealer)
        try dealer.set(.routingId, to: Data("worker-1"))
        try router.bind(transport.bindEndpoint)
        try dealer.connect(router.lastEndpoint)

        let request = [Data("PMILL1"), Data([1]), Data("body"), Data()]
        #expect(try dealer.send(request))
        let received = try #require(try router.receive())
        #expect(received == [Data("worker-1")] + request)

        #expect(try router.send([Data("worker-1"), Data("reply"), Data("blob")]))
        #expect(try dealer.receive() == [Data("reply"), Data("blob")])
    }

    @Test func largeFrameArrivesIntact() throws {
        let context = try ZMQContext()
        let (router, dealer) = try connectedPair(context)
        let original = Data.random(count: 4 << 20)
        var payload = original
        #expect(try dealer.send([Data("PMILL1"), payload, Data("tail")]))
        // The frame is shared with libzmq, not copied: changing our copy afterwards must
        // copy-on-write, not change what goes out.
        payload[0] ^= 0xFF
        payload[payload.count - 1] ^= 0xFF

        let received = try #require(try router.receive())
        try #require(received.count == 4)
        // A Bool, not `==` inside #expect: a failure would make Swift Testing diff 4 MiB.
        let intact = received[2] == original
        #expect(intact)
        #expect(received[3] == Data("tail"))
    }

    @Test func manySmallFrames() throws {
        let context = try ZMQContext()
        let (router, dealer) = try connectedPair(context)
        let frames = (0..<1000).map { Data("frame \($0)") }
        #expect(try dealer.send(frames))
        let received = try #require(try router.receive())
        #expect(received.dropFirst().elementsEqual(frames))
    }

    @Test func emptyMessageIsRejected() throws {
        let context = try ZMQContext()
        let dealer = try ZMQSocket.forTest(context, .dealer)
        let error = #expect(throws: ZMQError.self) { try dealer.send([]) }
        #expect(error?.code == .invalidArgument)
    }
}

/// A ROUTER bound on tcp (which exercises libzmq's decoder, unlike inproc) and a DEALER
/// connected to it with routing id "dealer".
func connectedPair(_ context: ZMQContext) throws -> (router: ZMQSocket, dealer: ZMQSocket) {
    let router = try ZMQSocket.forTest(context, .router)
    let dealer = try ZMQSocket.forTest(context, .dealer)
    try dealer.set(.routingId, to: Data("dealer"))
    try router.bind("tcp://127.0.0.1:*")
    try dealer.connect(router.lastEndpoint)
    return (router, dealer)
}
