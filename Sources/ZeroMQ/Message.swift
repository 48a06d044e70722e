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

/// Owns one `zmq_msg_t` (one frame) and closes it in `deinit`.
final class Message: @unchecked Sendable {
    // Sendable because a received large frame lives on inside a Data, which may be freed
    // on any thread: the message is never written after receive, and zmq_msg_close only
    // drops a reference count that libzmq keeps atomically.

    private let pointer: UnsafeMutablePointer<zmq_msg_t>

    /// An empty message, to receive into.
    init() {
        pointer = .allocate(capacity: 1)
        zmq_msg_init(pointer)
    }

    /// A message that points at `data`'s bytes instead of copying them; libzmq calls back
    /// to release them once it has written them out, possibly from its I/O thread.
    /// Only for frames of at least `ZMQ.zeroCopyThreshold` bytes (see `FrameBytes`).
    init(referencing data: Data) throws(ZMQError) {
        pointer = .allocate(capacity: 1)
        let owner = FrameBytes(data: data)
        // A Data this large is heap-backed, and `owner.data` is a `let` no one can mutate,
        // so its storage neither moves nor changes while `owner` lives, even though the
        // pointer escapes `withUnsafeBytes`.
        let start = owner.data.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress) }
        let retained = Unmanaged.passRetained(owner)
        let rc = zmq_msg_init_data(
            pointer,
            start,
            data.count,
            { _, hint in
                guard let hint else { return }
                Unmanaged<FrameBytes>.fromOpaque(hint).release()
            },
            retained.toOpaque()
        )
        guard rc == 0 else {
            let error = ZMQError.last("send: zmq_msg_init_data")
            // libzmq did not take the bytes, so it will never call back.
            retained.release()
            zmq_msg_init(pointer)
            throw error
        }
    }

    deinit {
        zmq_msg_close(pointer)
        pointer.deallocate()
    }

    /// zmq_msg_send: 0 when queued, else the errno (the message then still owns its bytes).
    func send(to socket: UnsafeMutableRawPointer, flags: Int32) -> Int32 {
        zmq_msg_send(pointer, socket, flags) == -1 ? zmq_errno() : 0
    }

    /// zmq_msg_recv: 0 when a frame arrived, else the errno.
    func receive(from socket: UnsafeMutableRawPointer, flags: Int32) -> Int32 {
        zmq_msg_recv(pointer, socket, flags) == -1 ? zmq_errno() : 0
    }

    /// A metadata property of the connection the frame came from (zmq_msg_gets).
    func property(_ name: String) -> String? {
        guard let value = zmq_msg_gets(pointer, name) else { return nil }
        return String(cString: value)
    }

    /// Whether more frames of the same message follow.
    var hasMore: Bool { zmq_msg_more(pointer) == 1 }

    /// The frame's bytes: copied when small; when large, a Data that shares libzmq's
    /// buffer and keeps this message open until the Data is gone.
    func takeData() -> Data {
        let size = zmq_msg_size(pointer)
        guard let bytes = zmq_msg_data(pointer), size > 0 else { return Data() }
        guard size >= ZMQ.zeroCopyThreshold else { return Data(bytes: bytes, count: size) }
        return Data(bytesNoCopy: bytes, count: size, deallocator: .custom { _, _ in withExtendedLifetime(self) {} })
    }
}

/// Keeps an outgoing frame's Data alive, unchanged, until libzmq releases it.
private final class FrameBytes: Sendable {
    let data: Data

    init(data: Data) { self.data = data }
}
