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

/// A pipe whose bytes only say "look": a thread of the coordinator's writes one when it has
/// something for the loop, and the loop polls `descriptor` with its socket, so it never
/// waits for that thread and never misses it.
final class WakePipe: @unchecked Sendable {
    // @unchecked: two file descriptors, each used by one side only (`signal()` by the
    // worker thread, `drain()` and `descriptor` by the loop); both are non-blocking.
    let descriptor: Int32
    private let writeEnd: Int32

    init() throws(WakePipe.Failure) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw Failure(cause: String(cString: strerror(errno))) }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
        }
        descriptor = descriptors[0]
        writeEnd = descriptors[1]
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    struct Failure: Error, CustomStringConvertible {
        let cause: String
        var description: String { "cannot create a pipe: \(cause)" }
    }

    /// Makes `descriptor` readable (a full pipe already is).
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &bytes, bytes.count) > 0 {}
    }
}
