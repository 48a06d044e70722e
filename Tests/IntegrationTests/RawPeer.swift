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
import MillProtocol
import PhotomillCore
import PhotomillTestSupport
import ZeroMQ

/// A hand-made PMILL peer on a real socket, for the tests that play a stranger (a
/// plaintext client, an unlisted key) or a coordinator that sends what it should not.
/// Owned by the test's thread.
final class RawPeer {
    let context: ZMQContext
    let socket: ZMQSocket

    typealias KeyPair = (publicKey: String, secretKey: String)

    /// A DEALER that connects to `endpoint`; CURVE when `keys` and `serverKey` are given.
    init(dealerTo endpoint: String, keys: KeyPair? = nil, serverKey: String? = nil, id: String) throws {
        context = try ZMQContext()
        socket = try ZMQSocket(context: context, type: .dealer)
        try socket.set(.linger, to: 0)
        try socket.set(.routingId, to: Data(id.utf8))
        if let keys, let serverKey {
            try socket.set(.curveServerKey, to: serverKey)
            try socket.set(.curvePublicKey, to: keys.publicKey)
            try socket.set(.curveSecretKey, to: keys.secretKey)
        }
        try socket.connect(endpoint)
    }

    /// A plaintext ROUTER bound to `endpoint` (a coordinator of the test's making).
    init(routerAt endpoint: String) throws {
        context = try ZMQContext()
        socket = try ZMQSocket(context: context, type: .router)
        try socket.set(.linger, to: 0)
        try socket.bind(endpoint)
    }

    deinit { socket.close() }

    /// READY of a peer with `slots` that says HEARTBEAT every `heartbeatMs` (the coordinator
    /// drops it after three intervals of silence).
    static func ready(workerId: String, slots: UInt32 = 1, heartbeatMs: UInt32 = 1000) -> MillMessage {
        var ready = Photomill_V1_Ready()
        ready.workerID = workerId
        ready.host = "test"
        ready.softwareVersion = "test/1"
        ready.protocolVersion = MillWire.protocolVersion
        ready.slots = slots
        ready.kinds = [.hash]
        ready.heartbeatIntervalMs = heartbeatMs
        return .ready(ready)
    }

    func send(_ message: MillMessage, to peer: Data? = nil) throws {
        _ = try socket.send((peer.map { [$0] } ?? []) + MillCodec.encode(message), dontWait: false)
    }

    /// The next message within `seconds`, or nil. With `heartbeat`, says HEARTBEAT every
    /// half second meanwhile, so the coordinator keeps this peer alive while it waits.
    func receive(within seconds: Double, heartbeat: Bool = false) throws -> [Data]? {
        let deadline = MonotonicInstant.now() + seconds
        var poller = Poller()
        _ = poller.register(socket)
        while MonotonicInstant.now() < deadline {
            if heartbeat { try send(.heartbeat()) }
            if !(try poller.poll(timeoutMilliseconds: 500)).isEmpty, let frames = try socket.receive(dontWait: true) {
                return frames
            }
        }
        return nil
    }
}

/// Key pairs written by `photomill keys generate`, read back the way a reader of the
/// files would: the first 40-character token of the first line that is not a comment.
enum TestKeys {
    static func generate(_ name: String, in directory: URL) throws -> (pair: RawPeer.KeyPair, key: String, pub: String)
    {
        let base = directory.appendingPathComponent(name).path
        let outcome = try PhotomillBinary.run(["keys", "generate", "--out", base])
        guard outcome.status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSDebugDescriptionErrorKey: outcome.stderr])
        }
        let pair = (publicKey: try token(base + ".pub"), secretKey: try token(base + ".key"))
        return (pair, base + ".key", base + ".pub")
    }

    private static func token(_ path: String) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let line = text.split(separator: "\n").first { !$0.hasPrefix("#") } ?? ""
        return String(line.prefix(40))
    }
}
