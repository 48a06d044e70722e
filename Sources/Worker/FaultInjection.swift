import Foundation

/// Test-only faults, switched on by environment variables, so that the reliability tests
/// (docs/reliability.md) can make a worker misbehave on one named file, which no real
/// photo does reliably. Unset in production, they cost one comparison per job.
///
/// - `PHOTOMILL_FAULT_CRASH_ON=NAME`: the worker process dies (SIGKILL to itself, as
///   abruptly as a crash in a decoder) when it starts a job whose file name is NAME: a
///   "poison photo".
/// - `PHOTOMILL_FAULT_HANG_ON=NAME:SECONDS`: the slot thread sleeps SECONDS before
///   processing NAME, while the rest of the worker (its socket thread) carries on: a job
///   hung in a decoder. NAME `*` slows every job down (a slow worker).
enum FaultInjection {
    static let crashOn: String? = ProcessInfo.processInfo.environment["PHOTOMILL_FAULT_CRASH_ON"]
    static let hangOn: (name: String, seconds: Double)? = {
        guard let value = ProcessInfo.processInfo.environment["PHOTOMILL_FAULT_HANG_ON"],
              let colon = value.lastIndex(of: ":"), let seconds = Double(value[value.index(after: colon)...]) else { return nil }
        return (String(value[..<colon]), seconds)
    }()

    /// Called by a slot thread before it processes `path`.
    static func beforeJob(path: String) {
        guard crashOn != nil || hangOn != nil else { return }
        let name = (path as NSString).lastPathComponent
        if name == crashOn {
            FileHandle.standardError.write(Data("photomill worker: PHOTOMILL_FAULT_CRASH_ON: dying on \(name)\n".utf8))
            kill(getpid(), SIGKILL)
        }
        if let hangOn, hangOn.name == "*" || name == hangOn.name { Thread.sleep(forTimeInterval: hangOn.seconds) }
    }
}
