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
import ZeroMQ

/// A ZAP handler (RFC 27) on its own thread: admits CURVE clients whose public key is in
/// `allowedKeys`. It is the pattern the coordinator uses for its worker allow-list.
final class ZAPHandler: Sendable {
    /// Each request's client key (Z85) and the status code we answered.
    let decisions = Shared<[(key: String, status: String)]>([])
    private let stopping = Shared(false)
    private let stopped = DispatchSemaphore(value: 0)

    /// Binds before returning, so no handshake on `context` can miss the handler.
    init(context: ZMQContext, allowedKeys: Set<String>) throws {
        let socket = try ZMQSocket.forTest(context, .rep, receiveTimeout: 50)
        try socket.bind("inproc://zeromq.zap.01")
        // The socket moves to the handler thread here and is used only there.
        Thread { [decisions, stopping, stopped] in
            while !stopping.value {
                do {
                    guard let request = try socket.receive() else { continue }
                    let reply = Self.answer(request, allowedKeys: allowedKeys, decisions: decisions)
                    try socket.send(reply, dontWait: false)
                } catch {
                    break
                }
            }
            socket.close()
            stopped.signal()
        }.start()
    }

    func stop() {
        stopping.value = true
        _ = stopped.wait(timeout: .now() + 5)
    }

    /// Request: version, request id, domain, address, identity, mechanism, credentials
    /// (for CURVE the client's 32-byte public key). Reply: version, request id, status
    /// code, status text, user id, metadata.
    private static func answer(
        _ request: [Data],
        allowedKeys: Set<String>,
        decisions: Shared<[(key: String, status: String)]>
    ) -> [Data] {
        guard request.count >= 7, request[0] == Data("1.0"), request[5] == Data("CURVE"),
            let key = try? Curve.z85Encode(request[6])
        else {
            return [
                Data("1.0"), request.count > 1 ? request[1] : Data(), Data("500"), Data("malformed request"), Data(),
                Data(),
            ]
        }
        let status = allowedKeys.contains(key) ? "200" : "400"
        decisions.update { $0.append((key, status)) }
        return [
            Data("1.0"), request[1], Data(status), Data(status == "200" ? "OK" : "key not allowed"), Data(key), Data(),
        ]
    }
}
