import Catalog

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

    /// Removes and returns the first of the next `window` jobs that `accepts` takes.
    mutating func takeFirst(within window: Int, where accepts: (PendingJob) -> Bool) -> PendingJob? {
        let end = Swift.min(storage.count, head + window)
        guard let index = storage[head..<end].firstIndex(where: accepts) else { return nil }
        if index == head {
            head += 1
            return storage[index]
        }
        return storage.remove(at: index)
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
