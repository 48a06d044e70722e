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

@Suite struct CurveTests {
    @Test func keyPairs() throws {
        #expect(Curve.isAvailable)
        let pair = try Curve.generateKeyPair()
        #expect(pair.publicKey.count == 40)
        #expect(pair.secretKey.count == 40)
        #expect(try Curve.publicKey(fromSecret: pair.secretKey) == pair.publicKey)
        #expect(try Curve.generateKeyPair().publicKey != pair.publicKey)
        #expect(throws: ZMQError.self) { try Curve.publicKey(fromSecret: "too short") }
    }

    @Test func z85() throws {
        // The example in the Z85 specification (ZeroMQ RFC 32).
        let bytes = Data([0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B])
        #expect(try Curve.z85Encode(bytes) == "HelloWorld")
        #expect(try Curve.z85Decode("HelloWorld") == bytes)
        let key = try Curve.generateKeyPair().publicKey
        #expect(try Curve.z85Decode(key).count == 32)
        #expect(try Curve.z85Encode(Curve.z85Decode(key)) == key)
        #expect(throws: ZMQError.self) { try Curve.z85Encode(Data([1, 2, 3])) }
        #expect(throws: ZMQError.self) { try Curve.z85Decode("abcd") }
    }

    @Test func serverAndClientExchangeMessages() throws {
        let context = try ZMQContext()
        let server = try CurveServer(context)
        let client = try server.client()
        try client.send([Data("hello")])
        #expect(try server.socket.receive() == [Data("client"), Data("hello")])
        try server.socket.send([Data("client"), Data("welcome")])
        #expect(try client.receive() == [Data("welcome")])
    }

    @Test func clientWithWrongServerKeyGetsNothingThrough() throws {
        let context = try ZMQContext()
        let server = try CurveServer(context, receiveTimeout: 500)
        let client = try server.client(serverKey: Curve.generateKeyPair().publicKey)
        try client.send([Data("hello")])
        #expect(try server.socket.receive() == nil)
    }
}

/// A CURVE ROUTER bound on tcp, and clients for it.
struct CurveServer {
    let context: ZMQContext
    let keys: (publicKey: String, secretKey: String)
    let socket: ZMQSocket

    /// `zapDomain` and `enforceDomain` are set before binding: libzmq copies a socket's
    /// options into each listener when it binds, so later changes miss its connections.
    init(
        _ context: ZMQContext,
        receiveTimeout: Int = 5000,
        zapDomain: String? = nil,
        enforceDomain: Bool = false
    ) throws {
        self.context = context
        keys = try Curve.generateKeyPair()
        socket = try ZMQSocket.forTest(context, .router, receiveTimeout: receiveTimeout)
        try socket.set(.curveServer, to: true)
        try socket.set(.curveSecretKey, to: keys.secretKey)
        if let zapDomain { try socket.set(.zapDomain, to: zapDomain) }
        try socket.set(.zapEnforceDomain, to: enforceDomain)
        try socket.bind("tcp://127.0.0.1:*")
    }

    /// A DEALER that trusts `serverKey` (by default the right one).
    func client(
        keys clientKeys: (publicKey: String, secretKey: String)? = nil,
        serverKey: String? = nil,
        routingId: String = "client"
    ) throws -> ZMQSocket {
        let clientKeys = try clientKeys ?? Curve.generateKeyPair()
        let client = try ZMQSocket.forTest(context, .dealer)
        try client.set(.routingId, to: Data(routingId))
        try client.set(.curveServerKey, to: serverKey ?? keys.publicKey)
        try client.set(.curvePublicKey, to: clientKeys.publicKey)
        try client.set(.curveSecretKey, to: clientKeys.secretKey)
        try client.connect(socket.lastEndpoint)
        return client
    }
}
