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
import Foundation

extension Curve {
    /// Z85 text for binary data whose length is a multiple of 4 (a raw key is 32 bytes).
    public static func z85Encode(_ data: Data) throws(ZMQError) -> String {
        guard data.count % 4 == 0 else {
            throw ZMQError(
                code: .invalidArgument,
                operation: "z85 encode",
                reason: "length \(data.count) is not a multiple of 4"
            )
        }
        var text = [CChar](repeating: 0, count: data.count / 4 * 5 + 1)
        let encoded = data.withUnsafeBytes { bytes in
            zmq_z85_encode(&text, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count) != nil
        }
        guard encoded else { throw ZMQError.last("z85 encode") }
        return String(zmqText: text)
    }

    /// The bytes of Z85 text whose length is a multiple of 5.
    public static func z85Decode(_ text: String) throws(ZMQError) -> Data {
        let length = text.utf8.count
        guard length % 5 == 0 else {
            throw ZMQError(
                code: .invalidArgument,
                operation: "z85 decode",
                reason: "length \(length) is not a multiple of 5"
            )
        }
        var bytes = [UInt8](repeating: 0, count: length / 5 * 4)
        guard zmq_z85_decode(&bytes, text) != nil else {
            throw ZMQError(code: .invalidArgument, operation: "z85 decode", reason: "not Z85 text")
        }
        return Data(bytes)
    }
}
