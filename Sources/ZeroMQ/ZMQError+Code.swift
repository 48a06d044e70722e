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
import Glibc

extension ZMQError {
    /// An errno value as libzmq reports it: the POSIX codes plus libzmq's own
    /// (`EFSM`, `ETERM`, `EMTHREAD`, `ENOCOMPATPROTO`) above `ZMQ_HAUSNUMERO`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int32

        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// Non-blocking call could not proceed, or a send/receive timeout expired.
        public static let again = Code(rawValue: EAGAIN)
        /// A signal interrupted a blocking call.
        public static let interrupted = Code(rawValue: EINTR)
        /// ROUTER_MANDATORY: no peer with that routing id.
        public static let hostUnreachable = Code(rawValue: EHOSTUNREACH)
        /// The context was shut down or terminated.
        public static let terminated = Code(rawValue: ETERM)
        public static let addressInUse = Code(rawValue: EADDRINUSE)
        public static let protocolNotSupported = Code(rawValue: EPROTONOSUPPORT)
        /// No I/O thread is available for the socket.
        public static let noIOThread = Code(rawValue: EMTHREAD)
        /// The socket's pattern does not allow this now (e.g. REQ sending twice).
        public static let wrongState = Code(rawValue: EFSM)
        /// The socket was closed.
        public static let notSocket = Code(rawValue: ENOTSOCK)
        public static let invalidArgument = Code(rawValue: EINVAL)
        /// Also used by ``ZMQError/tooManyFrames(_:limit:)``.
        public static let messageTooLarge = Code(rawValue: EMSGSIZE)
        public static let notSupported = Code(rawValue: ENOTSUP)

        /// The symbolic name, e.g. `EADDRINUSE`; `errno N` for one we do not know.
        public var name: String { Self.names[rawValue] ?? "errno \(rawValue)" }
        public var description: String { name }

        private static let names: [Int32: String] = [
            EAGAIN: "EAGAIN", EINTR: "EINTR", EHOSTUNREACH: "EHOSTUNREACH", ETERM: "ETERM",
            EADDRINUSE: "EADDRINUSE", EADDRNOTAVAIL: "EADDRNOTAVAIL",
            EPROTONOSUPPORT: "EPROTONOSUPPORT", EMTHREAD: "EMTHREAD", EFSM: "EFSM",
            ENOCOMPATPROTO: "ENOCOMPATPROTO", ENOTSOCK: "ENOTSOCK", EINVAL: "EINVAL",
            EMSGSIZE: "EMSGSIZE", ENOTSUP: "ENOTSUP", EFAULT: "EFAULT", ENOMEM: "ENOMEM",
            ENODEV: "ENODEV", ENOENT: "ENOENT", EACCES: "EACCES", EMFILE: "EMFILE",
            ENAMETOOLONG: "ENAMETOOLONG", ENOBUFS: "ENOBUFS", ENETDOWN: "ENETDOWN",
            ENETUNREACH: "ENETUNREACH", ECONNREFUSED: "ECONNREFUSED", ECONNRESET: "ECONNRESET",
            ECONNABORTED: "ECONNABORTED", ENOTCONN: "ENOTCONN", ETIMEDOUT: "ETIMEDOUT",
            EINPROGRESS: "EINPROGRESS", EAFNOSUPPORT: "EAFNOSUPPORT",
        ]
    }
}
