import Foundation
import PhotomillCore

/// Processes many files in parallel on threads it owns, one `PhotoProcessor` (and so one
/// tesseract engine) per thread. libvips and tesseract block for a long time, so they
/// never run on Swift's cooperative pool.
public enum ProcessingPool {
    /// Calls `deliver` with each result, in the order of `paths`, on the calling thread;
    /// returns when every file is done. Each file's XMP sidecar, when one lies beside it
    /// (`XMPSidecar.find`), is merged into its metadata as a scan would; videos, which a
    /// scan gives no OCR task, get no OCR result and no OCR failure.
    public static func process(paths: [String], kinds: Set<Kind>, parameters: ProcessingParameters,
                               threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                               deliver: (PhotoResult) -> Void) {
        let state = SharedState(count: paths.count)
        let threadCount = max(1, min(threads, paths.count))
        let threads = (0..<threadCount).map { index in
            OwnedThread(name: "pm-process-\(index)", stackSize: 8 << 20) {
                let processor = PhotoProcessor(parameters: parameters)
                processor.videosFailOCR = false
                while let index = state.nextIndex() {
                    let path = paths[index]
                    let sidecar = kinds.contains(.metadata) ? XMPSidecar.find(besidePhotoAt: path).map { SidecarInput.file(path: $0) } : nil
                    state.store(processor.process(path: path, kinds: kinds, sidecar: sidecar), at: index)
                }
            }
        }
        for index in paths.indices { deliver(state.waitForResult(at: index)) }
        for thread in threads { thread.join() }
    }

    /// Work index and finished results, guarded by one condition variable.
    private final class SharedState: @unchecked Sendable {
        // @unchecked: every stored property is read and written under `condition`.
        private let condition = NSCondition()
        private var next = 0
        private var results: [PhotoResult?]

        init(count: Int) { results = Array(repeating: nil, count: count) }

        func nextIndex() -> Int? {
            condition.lock()
            defer { condition.unlock() }
            guard next < results.count else { return nil }
            next += 1
            return next - 1
        }

        func store(_ result: PhotoResult, at index: Int) {
            condition.lock()
            results[index] = result
            condition.broadcast()
            condition.unlock()
        }

        func waitForResult(at index: Int) -> PhotoResult {
            condition.lock()
            defer { condition.unlock() }
            while results[index] == nil { condition.wait() }
            let result = results[index]!
            results[index] = nil
            return result
        }
    }
}
