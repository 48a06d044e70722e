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

/// One ZeroMQ socket.
///
/// Threading: a socket belongs to one thread at a time. It may be created (and bound or
/// connected) on one thread and then handed once to the thread that owns it, e.g. by
/// capturing it in the closure that starts that thread; it must not be used from two
/// threads concurrently, and nothing here checks that.
///
/// `deinit` closes the socket; `linger` (libzmq's default: forever) decides how long the
/// context's termination then waits for queued messages.
public final class ZMQSocket: @unchecked Sendable {
    // Sendable only so that it can cross to its owner thread once: libzmq allows a socket
    // to migrate between threads with a full memory barrier (a thread start or a lock
    // gives one), but never concurrent use, which this type leaves to its owner.

    public let context: ZMQContext
    public let type: SocketType

    /// The most frames ``receive(dontWait:)`` accepts in one message; nil for no limit.
    /// A longer message is still read to its end (so the next message starts clean),
    /// then discarded, and `receive` throws ``ZMQError/tooManyFrames(_:limit:)``.
    public var maxFrames: Int?

    /// nil once closed.
    private var handle: UnsafeMutableRawPointer?
    /// `monitor()` started libzmq's monitor on it: `close` stops it first.
    var isMonitored = false

    public init(context: ZMQContext, type: SocketType) throws(ZMQError) {
        guard let handle = zmq_socket(context.handle, type.rawValue) else {
            throw ZMQError.last("socket \(type)")
        }
        self.context = context
        self.type = type
        self.handle = handle
    }

    deinit { close() }

    /// Closes the socket; later calls do nothing. Queued outgoing messages are sent in the
    /// background for up to `linger` milliseconds.
    ///
    /// A monitored socket's monitor is stopped first: libzmq 4.3.4 leaves a socket closed
    /// with its monitor running alive in its I/O thread, where it goes on reconnecting and
    /// delivers what it had queued (a worker's old READY, on a connection nobody reads).
    public func close() {
        guard let handle else { return }
        if isMonitored { zmq_socket_monitor(handle, nil, 0) }
        zmq_close(handle)
        self.handle = nil
    }

    public func bind(_ endpoint: String) throws(ZMQError) {
        try call("bind \(endpoint)") { zmq_bind($0, endpoint) }
    }

    public func unbind(_ endpoint: String) throws(ZMQError) {
        try call("unbind \(endpoint)") { zmq_unbind($0, endpoint) }
    }

    public func connect(_ endpoint: String) throws(ZMQError) {
        try call("connect \(endpoint)") { zmq_connect($0, endpoint) }
    }

    public func disconnect(_ endpoint: String) throws(ZMQError) {
        try call("disconnect \(endpoint)") { zmq_disconnect($0, endpoint) }
    }

    /// The open libzmq socket, or ENOTSOCK naming `operation` once closed.
    func liveHandle(_ operation: @autoclosure () -> String) throws(ZMQError) -> UnsafeMutableRawPointer {
        guard let handle else {
            throw ZMQError(code: .notSocket, operation: operation(), reason: "socket is closed")
        }
        return handle
    }

    /// Runs a libzmq call that returns -1 on failure and turns that into a ZMQError.
    func call(_ operation: @autoclosure () -> String, _ body: (UnsafeMutableRawPointer) -> Int32) throws(ZMQError) {
        let handle = try liveHandle(operation())
        guard body(handle) != -1 else { throw ZMQError.last(operation()) }
    }
}
