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

/// How libzmq 4.3.4 consults a ZAP handler for CURVE, depending on ZAP_DOMAIN and
/// ZAP_ENFORCE_DOMAIN: the configuration the coordinator's worker allow-list relies on.
@Suite struct ZAPTests {
    /// The coordinator's configuration: domain set, enforcement on, handler bound first.
    @Test func handlerAdmitsListedKeysOnly() throws {
        let context = try ZMQContext()
        let listed = try Curve.generateKeyPair()
        let unlisted = try Curve.generateKeyPair()
        let handler = try ZAPHandler(context: context, allowedKeys: [listed.publicKey])
        defer { handler.stop() }
        let server = try CurveServer(context, zapDomain: "photomill", enforceDomain: true)

        let refused = try server.client(keys: unlisted, routingId: "unlisted")
        try refused.send([Data("let me in")])
        let admitted = try server.client(keys: listed, routingId: "listed")
        try admitted.send([Data("hello")])

        #expect(try server.socket.receive() == [Data("listed"), Data("hello")])
        try server.socket.set(.receiveTimeout, to: 500)
        #expect(try server.socket.receive() == nil)
        let decisions = handler.decisions.value
        #expect(decisions.contains { $0.key == listed.publicKey && $0.status == "200" })
        #expect(decisions.contains { $0.key == unlisted.publicKey && $0.status == "400" })
    }

    @Test func enforceDomainIsAcceptedWithoutDraftAPI() throws {
        #expect(ZMQ.has("draft") == false)
        let context = try ZMQContext()
        let socket = try ZMQSocket.forTest(context, .router)
        #expect(try socket.get(.zapEnforceDomain) == false)
        try socket.set(.zapEnforceDomain, to: true)
        #expect(try socket.get(.zapEnforceDomain) == true)
    }

    /// Every combination of ZAP_DOMAIN, ZAP_ENFORCE_DOMAIN and a bound handler (one that
    /// allows no one), against the rule read from libzmq's curve_server.cpp: ZAP is used
    /// unless enforcement is on without a domain; when used, a bound handler decides, and
    /// without one the client gets in only if enforcement is off.
    @Test(arguments: ZAPSetup.all)
    func whoDecides(_ setup: ZAPSetup) throws {
        let context = try ZMQContext()
        let handler = setup.handlerBound ? try ZAPHandler(context: context, allowedKeys: []) : nil
        defer { handler?.stop() }
        let zapUsed = !setup.enforceDomain || setup.domain != nil
        let admitted = zapUsed ? (!setup.handlerBound && !setup.enforceDomain) : true
        let server = try CurveServer(
            context,
            receiveTimeout: admitted ? 5000 : 500,
            zapDomain: setup.domain,
            enforceDomain: setup.enforceDomain
        )

        #expect(try delivers(server, clientKeys: Curve.generateKeyPair()) == admitted)
        if let handler {
            #expect(handler.decisions.value.isEmpty == !zapUsed)
        }
    }

    /// Whether a client with these keys (and the right server key) gets a message through
    /// within the server's receive timeout.
    private func delivers(_ server: CurveServer, clientKeys: (publicKey: String, secretKey: String)) throws -> Bool {
        let client = try server.client(keys: clientKeys)
        try client.send([Data("hello")])
        return try server.socket.receive() == [Data("client"), Data("hello")]
    }
}

struct ZAPSetup: Sendable, CustomTestStringConvertible {
    let domain: String?
    let enforceDomain: Bool
    let handlerBound: Bool

    static let all = [nil, "photomill"].flatMap { domain in
        [false, true].flatMap { enforce in
            [false, true].map { ZAPSetup(domain: domain, enforceDomain: enforce, handlerBound: $0) }
        }
    }

    var testDescription: String {
        "domain \(domain ?? "none"), enforce \(enforceDomain ? "on" : "off"), handler \(handlerBound ? "bound" : "none")"
    }
}
