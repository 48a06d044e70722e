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

/// What a poll waits for, or found: a message can be received, or sent.
public struct PollEvents: OptionSet, Sendable, Hashable {
    public let rawValue: Int16

    public init(rawValue: Int16) { self.rawValue = rawValue }

    public static let readable = PollEvents(rawValue: Int16(ZMQ_POLLIN))
    public static let writable = PollEvents(rawValue: Int16(ZMQ_POLLOUT))
    /// Reported (never requested) for a raw file descriptor in an error state.
    public static let error = PollEvents(rawValue: Int16(ZMQ_POLLERR))
}
