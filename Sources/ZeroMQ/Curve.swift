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

import CZeroMQ

/// CURVE (CurveZMQ) keys as libzmq uses them: 32-byte keys written as 40 Z85 characters.
public enum Curve {
    /// Characters in a Z85 key.
    public static let keyLength = 40

    /// Whether libzmq was built with CURVE (Debian's is, with libsodium).
    public static var isAvailable: Bool { ZMQ.has("curve") }

    public static func generateKeyPair() throws(ZMQError) -> (publicKey: String, secretKey: String) {
        var publicKey = [CChar](repeating: 0, count: keyLength + 1)
        var secretKey = [CChar](repeating: 0, count: keyLength + 1)
        guard zmq_curve_keypair(&publicKey, &secretKey) == 0 else { throw ZMQError.last("curve keypair") }
        return (String(zmqText: publicKey), String(zmqText: secretKey))
    }

    /// The public key that belongs to a Z85 secret key.
    public static func publicKey(fromSecret secretKey: String) throws(ZMQError) -> String {
        guard secretKey.utf8.count == keyLength else {
            throw ZMQError(
                code: .invalidArgument,
                operation: "curve public key",
                reason: "a Z85 secret key has \(keyLength) characters, got \(secretKey.utf8.count)"
            )
        }
        var publicKey = [CChar](repeating: 0, count: keyLength + 1)
        guard zmq_curve_public(&publicKey, secretKey) == 0 else { throw ZMQError.last("curve public key") }
        return String(zmqText: publicKey)
    }
}

extension String {
    /// The text before the first NUL of a buffer libzmq wrote.
    init(zmqText buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
