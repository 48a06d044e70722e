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

extension ZMQSocket {
    /// Receives one whole multipart message.
    ///
    /// Returns nil when none is waiting and `dontWait` is set, or when `receiveTimeout`
    /// expires. With `maxFrames` set, a longer message is read to its end, discarded, and
    /// reported by throwing ``ZMQError/tooManyFrames(_:limit:)``; the next call receives
    /// the next message as usual. Frames of at least `ZMQ.zeroCopyThreshold` bytes share
    /// libzmq's buffer instead of being copied.
    public func receive(dontWait: Bool = false) throws(ZMQError) -> [Data]? {
        try receive(dontWait: dontWait, property: nil)?.frames
    }

    /// Receives one whole message, as `receive(dontWait:)`, and a metadata property of
    /// its connection (zmq_msg_gets): "User-Id" is what the ZAP handler answered for the
    /// peer (photomill: its Z85 public key), "Peer-Address" its IP address. Nil when the
    /// connection has no such property.
    public func receive(
        dontWait: Bool = false,
        property name: String?
    ) throws(ZMQError) -> (frames: [Data], property: String?)? {
        let handle = try liveHandle("receive")
        let limit = maxFrames ?? .max
        var frames: [Data] = []
        var count = 0
        var more = true
        var property: String?
        while more {
            let message = Message()
            // Later frames are already here (libzmq delivers whole messages), so only the
            // first one waits.
            let errno = receiveFrame(message, handle, count == 0 && dontWait ? ZMQ_DONTWAIT : 0)
            guard errno == 0 else {
                if errno == EAGAIN && count == 0 { return nil }
                throw ZMQError(code: .init(rawValue: errno), operation: "receive frame \(count + 1)")
            }
            count += 1
            if let name, property == nil { property = message.property(name) }
            if count <= limit { frames.append(message.takeData()) }
            more = message.hasMore
        }
        guard count <= limit else { throw .tooManyFrames(count, limit: limit) }
        return (frames, property)
    }

    /// Receives one frame, retrying when a signal interrupts; returns 0 or the errno.
    private func receiveFrame(_ message: Message, _ handle: UnsafeMutableRawPointer, _ flags: Int32) -> Int32 {
        while true {
            let errno = message.receive(from: handle, flags: flags)
            if errno != EINTR { return errno }
        }
    }
}
