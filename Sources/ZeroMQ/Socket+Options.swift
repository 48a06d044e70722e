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

extension ZMQSocket {
    public func set<Value>(_ option: SocketOption<Value>, to value: Value) throws(ZMQError) {
        try option.write(liveHandle("setsockopt \(option.name)"), value)
    }

    public func get<Value>(_ option: SocketOption<Value>) throws(ZMQError) -> Value {
        try option.read(liveHandle("getsockopt \(option.name)"))
    }

    /// The endpoint last bound or connected, with the port the OS chose for `tcp://…:*`.
    public var lastEndpoint: String {
        get throws(ZMQError) { try get(SocketOption.string(ZMQ_LAST_ENDPOINT, "lastEndpoint", capacity: 1024)) }
    }

    /// Whether a message can be received or sent now (ZMQ_EVENTS). Reading it also makes
    /// libzmq process pending commands, which an edge-triggered `fileDescriptor` needs.
    public var events: PollEvents {
        get throws(ZMQError) {
            PollEvents(rawValue: Int16(truncatingIfNeeded: try get(SocketOption.int(ZMQ_EVENTS, "events"))))
        }
    }

    /// A file descriptor that becomes readable when `events` may have changed, for
    /// integrating with another event loop. Edge-triggered: after it fires, read `events`
    /// and drain until it no longer shows readable.
    public var fileDescriptor: Int32 {
        get throws(ZMQError) { Int32(try get(SocketOption.int(ZMQ_FD, "fileDescriptor"))) }
    }
}
