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

/// One event of a socket's connections, as libzmq's socket monitor reports it
/// (zmq_socket_monitor(3)): what a connecting socket otherwise keeps to itself, such as a
/// refused connection or a failed CURVE handshake.
public struct MonitorEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A TCP connect is under way (it did not fail at once).
        case connectDelayed
        case connected
        /// The connection attempt failed; libzmq tries again after its reconnect interval.
        case connectRetried
        case closed
        case disconnected
        case handshakeSucceeded
        /// The peer closed the connection during the handshake, without saying why.
        case handshakeFailedNoDetail
        /// The handshake broke a rule; `value` is one of ``MonitorEvent/ProtocolError``.
        case handshakeFailedProtocol
        /// The peer's authentication (ZAP) refused us; `value` is its status code (400).
        case handshakeFailedAuth
        case other(UInt16)
    }

    /// The ZMTP errors of `handshakeFailedProtocol` that a person can act on.
    public enum ProtocolError {
        /// CURVE could not decrypt: the two sides' keys do not belong together.
        public static let cryptographic: UInt32 = 0x1100_0001
        /// One side runs CURVE and the other does not.
        public static let mechanismMismatch: UInt32 = 0x1100_0002
    }

    public var kind: Kind
    /// The event's value: an errno, a file descriptor, a protocol error or a status code.
    public var value: UInt32
    /// The endpoint the event is about.
    public var endpoint: String

    public init(kind: Kind, value: UInt32 = 0, endpoint: String = "") {
        self.kind = kind
        self.value = value
        self.endpoint = endpoint
    }

    init(number: UInt16, value: UInt32, endpoint: String) {
        let kinds: [Int32: Kind] = [
            ZMQ_EVENT_CONNECT_DELAYED: .connectDelayed, ZMQ_EVENT_CONNECTED: .connected,
            ZMQ_EVENT_CONNECT_RETRIED: .connectRetried, ZMQ_EVENT_CLOSED: .closed,
            ZMQ_EVENT_DISCONNECTED: .disconnected,
            ZMQ_EVENT_HANDSHAKE_SUCCEEDED: .handshakeSucceeded,
            ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL: .handshakeFailedNoDetail,
            ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL: .handshakeFailedProtocol,
            ZMQ_EVENT_HANDSHAKE_FAILED_AUTH: .handshakeFailedAuth,
        ]
        self.init(kind: kinds[Int32(number)] ?? .other(number), value: value, endpoint: endpoint)
    }
}

/// The receiving end of a socket's monitor: an inproc PAIR socket to poll (``socket``)
/// and read events from. Close it after the monitored socket, or with it.
public final class SocketMonitor: @unchecked Sendable {
    // @unchecked: as ZMQSocket, it belongs to the thread that polls it.
    public let socket: ZMQSocket

    init(socket: ZMQSocket) { self.socket = socket }

    /// The next event, or nil when none is waiting.
    public func next() throws(ZMQError) -> MonitorEvent? {
        guard let frames = try socket.receive(dontWait: true) else { return nil }
        // Frame 1: the event number (16 bits) and its value (32 bits), in host order;
        // frame 2: the endpoint (zmq_socket_monitor(3)).
        guard frames.count == 2, frames[0].count >= 6 else { return MonitorEvent(kind: .other(0)) }
        let (number, value) = frames[0].withUnsafeBytes {
            ($0.loadUnaligned(fromByteOffset: 0, as: UInt16.self), $0.loadUnaligned(fromByteOffset: 2, as: UInt32.self))
        }
        return MonitorEvent(number: number, value: value, endpoint: String(decoding: frames[1], as: UTF8.self))
    }

    public func close() { socket.close() }
}

extension ZMQSocket {
    /// Starts libzmq's monitor on this socket for every event, and returns its receiving
    /// end. Call it before `connect`, so that no event of the first attempt is missed.
    public func monitor() throws(ZMQError) -> SocketMonitor {
        let endpoint = "inproc://photomill-monitor-\(UUID().uuidString)"
        try call("monitor") { zmq_socket_monitor($0, endpoint, ZMQ_EVENT_ALL) }
        isMonitored = true
        let pair = try ZMQSocket(context: context, type: .pair)
        try pair.set(.linger, to: 0)
        try pair.connect(endpoint)
        return SocketMonitor(socket: pair)
    }
}
