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

/// The workers with free credit, in the order they got it: dispatch serves the one that
/// has waited longest for work first, so that none waits behind the others, at a cost per
/// worker served. Sorting every worker with credit by its credit on every loop turn, as
/// dispatch did, was O(n log n) a turn: with a thousand workers it left some of them
/// without a single job (Jain's index 0.446, docs/benchmarks.md) and cost more than the
/// jobs it placed.
///
/// Removal is lazy: each entry carries the number it was queued under, and an entry whose
/// worker was removed (or queued again since) is skipped when it comes up.
struct CreditQueue {
    private var entries: [(peer: Data, number: Int)] = []
    private var head = 0
    private var queued: [Data: Int] = [:]
    private var counter = 0

    var isEmpty: Bool { queued.isEmpty }
    var count: Int { queued.count }

    func contains(_ peer: Data) -> Bool { queued[peer] != nil }

    /// At the back, unless already queued.
    mutating func append(_ peer: Data) {
        guard queued[peer] == nil else { return }
        counter += 1
        queued[peer] = counter
        entries.append((peer, counter))
    }

    mutating func remove(_ peer: Data) {
        queued[peer] = nil
    }

    /// The worker that has waited longest, taken out of the queue.
    mutating func popFirst() -> Data? {
        while head < entries.count {
            let entry = entries[head]
            head += 1
            guard queued[entry.peer] == entry.number else { continue }
            queued[entry.peer] = nil
            compact()
            return entry.peer
        }
        compact()
        return nil
    }

    /// Puts workers back at the front, in this order (served before those queued now).
    mutating func prepend(_ peers: [Data]) {
        let fresh = peers.filter { queued[$0] == nil }
        guard !fresh.isEmpty else { return }
        var front: [(peer: Data, number: Int)] = []
        for peer in fresh {
            counter += 1
            queued[peer] = counter
            front.append((peer, counter))
        }
        if head >= front.count {
            // Room before the head: no copy.
            head -= front.count
            entries.replaceSubrange(head..<head + front.count, with: front)
        } else {
            entries = front + entries[head...]
            head = 0
        }
    }

    private mutating func compact() {
        if head > 64 && head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }
}
