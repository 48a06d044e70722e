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

import Synchronization

/// What threads hand to one reader, who takes it all at once: the results of jobs a
/// `BlockingExecutor` ran, collected by a loop when its wake-up descriptor says so.
public final class Mailbox<Item: Sendable>: Sendable {
    private let items = Mutex<[Item]>([])

    public init() {}

    public func post(_ item: Item) { items.withLock { $0.append(item) } }

    /// Everything posted since the last call, in the order it was posted.
    public func takeAll() -> [Item] {
        items.withLock { items in
            defer { items.removeAll(keepingCapacity: true) }
            return items
        }
    }
}
