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

/// A libzmq context: the I/O threads and the inproc namespace that sockets share.
///
/// Sockets keep their context alive, so `deinit` (which calls `zmq_ctx_term`) runs only
/// after every socket is closed; it then waits for each socket's linger period to send
/// what is still queued, so keep `linger` finite where a peer may never come.
public final class ZMQContext: @unchecked Sendable {
    // Sendable because libzmq documents contexts as thread safe, and the pointer is never
    // reassigned after init.
    let handle: UnsafeMutableRawPointer

    /// `maxSockets`: more sockets than libzmq's default of 1023 (a benchmark that plays
    /// a thousand workers in one process).
    public init(ioThreads: Int = 1, maxSockets: Int? = nil) throws(ZMQError) {
        guard let threads = Int32(exactly: ioThreads), threads >= 0 else {
            throw ZMQError(code: .invalidArgument, operation: "context ioThreads \(ioThreads)")
        }
        guard let handle = zmq_ctx_new() else { throw ZMQError.last("zmq_ctx_new") }
        for (option, value, name) in [
            (ZMQ_IO_THREADS, threads, "ioThreads"), (ZMQ_MAX_SOCKETS, Int32(clamping: maxSockets ?? 0), "maxSockets"),
        ]
        where option == ZMQ_IO_THREADS || maxSockets != nil {
            guard zmq_ctx_set(handle, option, value) == 0 else {
                let error = ZMQError.last("context \(name) \(value)")
                zmq_ctx_term(handle)
                throw error
            }
        }
        self.handle = handle
    }

    /// Makes every blocking call on this context's sockets, in any thread, return ETERM,
    /// and every later call fail with ETERM; the sockets must still be closed.
    public func shutdown() {
        zmq_ctx_shutdown(handle)
    }

    deinit {
        // A signal can interrupt the wait for lingering messages; termination must still
        // happen, or the I/O threads leak.
        while zmq_ctx_term(handle) == -1 && zmq_errno() == EINTR {}
    }
}
