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

/// The jobs of one tier paged in from the catalog, waiting for a worker with credit, in
/// the tier's order (rank, then photo).
/// Taking from the front costs O(1) (a moving head, compacted now and then), where
/// `Array.remove(at: 0)` would move every waiting job once per dispatched one.
struct ReadyQueue {
    private var storage: [PendingJob] = []
    private var head = 0

    var count: Int { storage.count - head }
    var isEmpty: Bool { head == storage.count }

    mutating func append(contentsOf jobs: [PendingJob]) {
        if head > 0 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        storage += jobs
    }

    /// The first of the next `window` jobs with a non-empty `share`, and that share.
    func firstShare(within window: Int, share: (PendingJob) -> [Kind]) -> (index: Int, kinds: [Kind])? {
        let end = Swift.min(storage.count, head + window)
        for index in head..<end {
            let kinds = share(storage[index])
            if !kinds.isEmpty { return (index, kinds) }
        }
        return nil
    }

    subscript(index: Int) -> PendingJob { storage[index] }

    /// The index of the first waiting job that `matches`.
    func firstIndex(where matches: (PendingJob) -> Bool) -> Int? {
        storage[head...].firstIndex(where: matches)
    }

    /// Takes `kinds` of the job at `index` (from `firstShare`); the job's other kinds stay
    /// queued (for a worker that offers them).
    mutating func take(at index: Int, kinds: [Kind]) -> PendingJob {
        var taken = storage[index]
        taken.keepKinds { kinds.contains($0) }
        storage[index].keepKinds { !kinds.contains($0) }
        if storage[index].kinds.isEmpty {
            if index == head { head += 1 } else { storage.remove(at: index) }
        }
        return taken
    }

    mutating func removeAll() {
        storage.removeAll()
        head = 0
    }

    /// Replaces each job by `transform(job)`, dropping those it returns nil for.
    mutating func update(_ transform: (PendingJob) -> PendingJob?) {
        storage = storage[head...].compactMap(transform)
        head = 0
    }

    /// Puts a job that could not be sent back at the front.
    mutating func putBack(_ job: PendingJob) {
        if head > 0 {
            head -= 1
            storage[head] = job
        } else {
            storage.insert(job, at: 0)
        }
    }
}
