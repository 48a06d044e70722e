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
import HummingbirdCore
import PhotomillCore

/// How many HTTP connections the dashboard holds at once (`DescriptorLimit.httpConnections`
/// of the process's open-file limit): at the limit the server stops accepting, and further
/// connections wait in the kernel's accept queue, holding none of the coordinator's
/// descriptors; each one closed lets the next in. Idle connections, and ones that never
/// finish their request's head, are closed after `DashboardServer.idleTimeout`.
/// A reference, so `/metrics` reads the count the server keeps.
final class ConnectionBudget: AvailableConnectionsDelegate, @unchecked Sendable {
    // @unchecked: `open` is guarded by `lock`.
    let limit: Int
    private let lock = NSLock()
    private var open = 0

    init(limit: Int) { self.limit = limit }

    var count: Int { lock.withLock { open } }

    func connectionOpened() { lock.withLock { open += 1 } }
    func connectionClosed() { lock.withLock { open -= 1 } }
    func isAcceptingNewConnections() -> Bool { lock.withLock { open < limit } }
}
