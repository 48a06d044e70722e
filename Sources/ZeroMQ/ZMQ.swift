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

/// Facts about the libzmq this process linked.
public enum ZMQ {
    /// The runtime library's version (not the header's), e.g. (4, 3, 4).
    public static var version: (major: Int, minor: Int, patch: Int) {
        var major: Int32 = 0
        var minor: Int32 = 0
        var patch: Int32 = 0
        zmq_version(&major, &minor, &patch)
        return (Int(major), Int(minor), Int(patch))
    }

    /// Whether libzmq was built with a capability: "ipc", "curve", "draft", ….
    public static func has(_ capability: String) -> Bool {
        zmq_has(capability) == 1
    }

    /// Frames of at least this many bytes are sent and received without copying; smaller
    /// ones are copied, which costs less than the allocation and free callback that
    /// sharing needs.
    public static let zeroCopyThreshold = 64 * 1024
}
