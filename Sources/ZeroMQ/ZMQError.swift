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

/// A failed libzmq call: the errno it left, libzmq's text for it, and the operation (with
/// its endpoint or option) that failed, e.g.
/// `bind tcp://*:5555: Address already in use (EADDRINUSE)`.
public struct ZMQError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The errno value; compare with the static members of ``Code``.
    public let code: Code
    /// What was being done, e.g. `bind tcp://*:5555` or `setsockopt curveServerKey`.
    public let operation: String
    /// `zmq_strerror` for the code, or our own explanation where libzmq set no errno.
    public let reason: String
    /// For ``tooManyFrames(_:limit:)`` only: how many frames the discarded message had.
    public let discardedFrameCount: Int?

    public init(code: Code, operation: String, reason: String? = nil) {
        self.init(code: code, operation: operation, reason: reason, discardedFrameCount: nil)
    }

    private init(code: Code, operation: String, reason: String?, discardedFrameCount: Int?) {
        self.code = code
        self.operation = operation
        self.reason = reason ?? String(cString: zmq_strerror(code.rawValue))
        self.discardedFrameCount = discardedFrameCount
    }

    /// The errno value libzmq set.
    public var errno: Int32 { code.rawValue }
    /// The symbolic errno name, e.g. `EHOSTUNREACH`.
    public var name: String { code.name }
    public var description: String { "\(operation): \(reason) (\(name))" }

    /// The error `ZMQSocket.receive` throws for a message with more frames than
    /// `maxFrames`. Its code is `EMSGSIZE`, which libzmq itself never reports on receive
    /// (an oversized frame makes it drop the connection instead), so the code alone
    /// identifies it; `discardedFrameCount` says how many frames were thrown away.
    public static func tooManyFrames(_ count: Int, limit: Int) -> ZMQError {
        ZMQError(
            code: .messageTooLarge,
            operation: "receive",
            reason: "message of \(count) frames exceeds maxFrames \(limit) and was discarded",
            discardedFrameCount: count
        )
    }

    /// The error for the errno libzmq just set. Call it straight after the failing call;
    /// errno is read before `operation` builds its string, which may allocate.
    static func last(_ operation: @autoclosure () -> String) -> ZMQError {
        let code = Code(rawValue: zmq_errno())
        return ZMQError(code: code, operation: operation())
    }
}
