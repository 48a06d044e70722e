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

import Foundation

/// The process's open-file limit (RLIMIT_NOFILE), and how photomill shares it.
///
/// systemd gives a service a soft limit of 1,024 and a hard one of 524,288 (its default
/// since v240), for the sake of programs still using select(2); photomill uses none, so
/// every photomill process raises its soft limit to the hard one at start. Of what it
/// gets, the dashboard's HTTP connections may hold an eighth (at most 512, at least 8): the
/// rest is the coordinator's own — its catalog connections, its ZeroMQ sockets and each
/// connected worker, the files it reads to send — so a flood of idle HTTP connections
/// waits in the kernel's accept queue instead of taking the descriptors libzmq needs (it
/// aborts the process when an ipc accept finds none left, src/ipc_listener.cpp:325).
public enum DescriptorLimit {
    /// The soft and hard limits now.
    public static var current: (soft: Int, hard: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (1024, 1024) }
        return (clamp(limit.rlim_cur), clamp(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one; returns the soft limit in force after.
    @discardableResult
    public static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return current.soft }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return current.soft
    }

    /// How many HTTP connections the dashboard may hold at once with `soft` descriptors.
    public static func httpConnections(soft: Int) -> Int {
        min(512, max(8, soft / 8))
    }

    /// Descriptors open in this process now (the entries of /proc/self/fd), or nil.
    public static func openCount() -> Int? {
        guard let folder = opendir("/proc/self/fd") else { return nil }
        defer { closedir(folder) }
        var count = 0
        while readdir(folder) != nil { count += 1 }
        return count - 3  // ".", ".." and the listing's own descriptor
    }

    private static func clamp(_ value: rlim_t) -> Int {
        value > rlim_t(Int32.max) ? Int(Int32.max) : Int(value)
    }
}
