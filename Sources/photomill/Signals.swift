import Coordinator
import Foundation
import ServiceLifecycle
import UnixSignals

/// The signals every long-running command handles, beside its `ServiceGroup`'s graceful
/// shutdown on SIGTERM and SIGINT: a second one means "now", and exits at once (130)
/// instead of waiting for the drain. First in the group, so stopped last.
struct SecondSignalExits: Service {
    func run() async throws {
        var seen = 0
        for await _ in await UnixSignalsSequence(trapping: .sigterm, .sigint).cancelOnGracefulShutdown() {
            seen += 1
            if seen >= 2 { exit(130) }
        }
    }
}

/// SIGHUP: the coordinator re-reads its allow-list (it also notices the file changing).
struct AllowListReloads: Service {
    let admission: Admission

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            admission.reload()
        }
    }
}
