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

import PhotomillCore

/// When each connected worker is next due a HEARTBEAT, as a min-heap: a loop turn looks at
/// the workers whose time has come, not at every worker. With a thousand workers the walk
/// over all sessions on every turn (a turn per message received, so about a thousand a
/// second from their heartbeats alone) made the coordinator's idle CPU grow with the square
/// of the workers (docs/benchmarks.md, "A thousand workers").
///
/// Entries are lazy: a session that was sent something since it was scheduled, or that is
/// gone, is found out when its entry comes up, and scheduled again or forgotten then.
struct HeartbeatSchedule {
    private var heap: [(due: MonotonicInstant, session: WorkerSession)] = []

    var isEmpty: Bool { heap.isEmpty }

    mutating func schedule(_ session: WorkerSession, at due: MonotonicInstant) {
        heap.append((due, session))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].due < heap[parent].due else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Takes out the sessions due by `now`, earliest first.
    mutating func due(at now: MonotonicInstant) -> [WorkerSession] {
        var taken: [WorkerSession] = []
        while let first = heap.first, first.due <= now {
            taken.append(first.session)
            let last = heap.removeLast()
            guard !heap.isEmpty else { break }
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count && heap[left].due < heap[smallest].due { smallest = left }
                if right < heap.count && heap[right].due < heap[smallest].due { smallest = right }
                guard smallest != parent else { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return taken
    }
}
