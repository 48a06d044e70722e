import Catalog
import PhotomillCore

/// The jobs paged in from the catalog, waiting for a worker with credit, in photo order.
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

    /// Takes, from the first of the next `window` jobs with a non-empty `share`, the kinds
    /// of that share; the job's other kinds stay queued (for a worker that offers them).
    mutating func takeShare(within window: Int, share: (PendingJob) -> [Kind]) -> PendingJob? {
        let end = Swift.min(storage.count, head + window)
        for index in head..<end {
            let kinds = share(storage[index])
            guard !kinds.isEmpty else { continue }
            var taken = storage[index]
            taken.keepKinds { kinds.contains($0) }
            storage[index].keepKinds { !kinds.contains($0) }
            if storage[index].kinds.isEmpty {
                if index == head { head += 1 } else { storage.remove(at: index) }
            }
            return taken
        }
        return nil
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
