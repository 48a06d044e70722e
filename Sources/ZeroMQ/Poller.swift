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

/// Waits on several sockets (and raw file descriptors) at once with `zmq_poll`: the loop
/// of the thread that owns those sockets, with its nearest timer as the timeout.
///
/// Holds its sockets strongly, so a registered socket stays open (unless closed
/// explicitly, which makes `poll` throw ENOTSOCK).
public struct Poller {
    /// One registration that has events.
    public struct Ready: Sendable, Hashable {
        /// The value `register` returned for it.
        public let index: Int
        public let events: PollEvents

        public init(index: Int, events: PollEvents) {
            self.index = index
            self.events = events
        }
    }

    private enum Source {
        case socket(ZMQSocket)
        case fileDescriptor(Int32)
    }

    private var sources: [Source] = []
    private var interests: [PollEvents] = []

    public init() {}

    public var count: Int { sources.count }

    /// Adds a socket; returns its index in ``poll(timeoutMilliseconds:)``'s results.
    @discardableResult
    public mutating func register(_ socket: ZMQSocket, for events: PollEvents = .readable) -> Int {
        add(.socket(socket), events)
    }

    /// Adds a file descriptor (a pipe, a signal fd, …); returns its index.
    @discardableResult
    public mutating func register(fileDescriptor: Int32, for events: PollEvents = .readable) -> Int {
        add(.fileDescriptor(fileDescriptor), events)
    }

    /// Changes what a registration waits for, e.g. to wait for `writable` only while
    /// sends are backed up.
    public mutating func setInterest(_ events: PollEvents, at index: Int) {
        interests[index] = events
    }

    /// Waits up to `timeoutMilliseconds` (-1 forever, 0 not at all) and returns the
    /// registrations with events, in index order; empty on timeout, and also when a signal
    /// interrupted the wait (EINTR), so a loop just recomputes its timers and polls again.
    public func poll(timeoutMilliseconds: Int) throws(ZMQError) -> [Ready] {
        var items = try pollItems()
        let count = Int32(items.count)
        guard zmq_poll(&items, count, timeoutMilliseconds) != -1 else {
            let error = ZMQError.last("poll")
            if error.code == .interrupted { return [] }
            throw error
        }
        return items.indices.compactMap { index in
            let events = PollEvents(rawValue: items[index].revents)
            return events.isEmpty ? nil : Ready(index: index, events: events)
        }
    }

    private mutating func add(_ source: Source, _ events: PollEvents) -> Int {
        sources.append(source)
        interests.append(events)
        return sources.count - 1
    }

    private func pollItems() throws(ZMQError) -> [zmq_pollitem_t] {
        var items: [zmq_pollitem_t] = []
        items.reserveCapacity(sources.count)
        for (index, source) in sources.enumerated() {
            let events = interests[index].rawValue
            switch source {
            case .socket(let socket):
                let handle = try socket.liveHandle("poll: registration \(index)")
                items.append(zmq_pollitem_t(socket: handle, fd: 0, events: events, revents: 0))
            case .fileDescriptor(let fd):
                items.append(zmq_pollitem_t(socket: nil, fd: fd, events: events, revents: 0))
            }
        }
        return items
    }
}
