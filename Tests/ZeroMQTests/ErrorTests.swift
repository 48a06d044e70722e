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

@Suite struct ErrorTests {
    @Test func bindingTwiceNamesEADDRINUSE() throws {
        let context = try ZMQContext()
        let first = try ZMQSocket.forTest(context, .router)
        try first.bind("tcp://127.0.0.1:*")
        let endpoint = try first.lastEndpoint
        #expect(endpoint.hasPrefix("tcp://127.0.0.1:"))

        let second = try ZMQSocket.forTest(context, .router)
        let error = #expect(throws: ZMQError.self) { try second.bind(endpoint) }
        #expect(error?.code == .addressInUse)
        #expect(error?.description == "bind \(endpoint): Address already in use (EADDRINUSE)")
    }

    @Test func unknownTransportIsEPROTONOSUPPORT() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket.forTest(context, .dealer)
        let error = #expect(throws: ZMQError.self) { try socket.connect("carrier-pigeon://coop") }
        #expect(error?.name == "EPROTONOSUPPORT")
    }

    @Test func closedSocketIsENOTSOCK() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket.forTest(context, .dealer)
        socket.close()
        socket.close()
        let error = #expect(throws: ZMQError.self) { try socket.send([Data("x")]) }
        #expect(error?.name == "ENOTSOCK")
    }

    @Test func libzmqOwnCodesHaveNames() {
        let names = [ZMQError.Code.terminated, .wrongState, .noIOThread].map(\.name)
        #expect(names == ["ETERM", "EFSM", "EMTHREAD"])
        #expect(ZMQError.Code(rawValue: 99999).name == "errno 99999")
    }

    @Test func optionValuesAreChecked() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket.forTest(context, .dealer)
        #expect(throws: ZMQError.self) { try socket.set(.linger, to: Int.max) }
        #expect(throws: ZMQError.self) { try socket.set(.curveServerKey, to: "short") }
        try socket.set(.linger, to: 250)
        #expect(try socket.get(.linger) == 250)
        #expect(throws: ZMQError.self) { try socket.set(.zapDomain, to: "") }
        try socket.set(.zapDomain, to: "photomill")
        #expect(try socket.get(.zapDomain) == "photomill")
        try socket.set(.heartbeatInterval, to: 1000)
        #expect(try socket.get(.heartbeatInterval) == 1000)
        #expect(try socket.fileDescriptor >= 0)
        let router = try ZMQSocket.forTest(context, .router)
        try router.set(.routerMandatory, to: true)
        // libzmq 4.3 has no getter for it.
        let error = #expect(throws: ZMQError.self) { try router.get(.routerMandatory) }
        #expect(error?.description == "getsockopt routerMandatory: Invalid argument (EINVAL)")
    }

    @Test func versionIsTheLinkedLibrary() {
        let version = ZMQ.version
        #expect(version.major == 4 && version.minor >= 3)
    }
}
