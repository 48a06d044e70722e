import Dispatch
import Foundation

/// SIGTERM and SIGINT call `handler` once (on a Dispatch queue, never the caller's
/// thread); a second signal exits at once.
final class SignalTrap: @unchecked Sendable {
    // @unchecked: the sources are created once and only read afterwards.
    private var sources: [any DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "photomill.signals")

    init(_ handler: @escaping @Sendable () -> Void) {
        let fired = Atomic()
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if fired.setIfUnset() { handler() } else { exit(130) }
            }
            source.resume()
            sources.append(source)
        }
    }

    private final class Atomic: @unchecked Sendable {
        // @unchecked: `value` is guarded by `lock`.
        private let lock = NSLock()
        private var value = false
        func setIfUnset() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            if value { return false }
            value = true
            return true
        }
    }
}

/// SIGHUP calls `handler` (on a Dispatch queue) each time: the coordinator re-reads its allow-list.
final class HangupTrap: @unchecked Sendable {
    // @unchecked: the source is created once and only read afterwards.
    private let source: any DispatchSourceSignal

    init(_ handler: @escaping @Sendable () -> Void) {
        signal(SIGHUP, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "photomill.hangup"))
        source.setEventHandler(handler: handler)
        source.resume()
    }
}
