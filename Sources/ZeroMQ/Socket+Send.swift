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
    /// Sends one multipart message.
    ///
    /// Returns false, having sent nothing, when the message cannot be queued now (EAGAIN):
    /// with `dontWait`, because the peer's high-water mark is reached or (ROUTER_MANDATORY
    /// aside) there is no peer; without it, because `sendTimeout` expired. Throws on real
    /// errors, e.g. EHOSTUNREACH for an unknown routing id with ROUTER_MANDATORY.
    ///
    /// All frames go out or none: libzmq counts whole messages against the high-water
    /// mark, so only the first frame can meet it, and once that is queued the rest follow
    /// without waiting and the peer receives the message whole.
    ///
    /// Frames of at least `ZMQ.zeroCopyThreshold` bytes are not copied: libzmq keeps the
    /// Data alive until it has written them.
    @discardableResult
    public func send(_ frames: [Data], dontWait: Bool = true) throws(ZMQError) -> Bool {
        let handle = try liveHandle("send")
        guard !frames.isEmpty else {
            throw ZMQError(code: .invalidArgument, operation: "send", reason: "a message needs at least one frame")
        }
        for (index, frame) in frames.enumerated() {
            var flags: Int32 = index < frames.count - 1 ? ZMQ_SNDMORE : 0
            if index == 0 && dontWait { flags |= ZMQ_DONTWAIT }
            let errno = try sendFrame(frame, handle, flags)
            guard errno == 0 else {
                if errno == EAGAIN && index == 0 { return false }
                throw ZMQError(code: .init(rawValue: errno), operation: "send frame \(index + 1) of \(frames.count)")
            }
        }
        return true
    }

    /// Sends one frame, retrying when a signal interrupts; returns 0 or the errno.
    private func sendFrame(_ frame: Data, _ handle: UnsafeMutableRawPointer, _ flags: Int32) throws(ZMQError) -> Int32 {
        while true {
            let errno: Int32
            if frame.count >= ZMQ.zeroCopyThreshold {
                errno = try Message(referencing: frame).send(to: handle, flags: flags)
            } else {
                errno = frame.withUnsafeBytes { bytes in
                    zmq_send(handle, bytes.baseAddress, bytes.count, flags) == -1 ? zmq_errno() : 0
                }
            }
            if errno != EINTR { return errno }
        }
    }
}
