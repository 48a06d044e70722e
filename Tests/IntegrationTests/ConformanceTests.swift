import Foundation
import PhotomillTestSupport
import Testing

/// The PMILL conformance suite (Tests/Conformance/run.py, protocols/PROTOCOL.md "Writing a
/// worker in another language"): every scenario against the real coordinator, once with
/// the Python worker written from the spec alone and once with the Swift `photomill
/// worker`. A scenario passes when every hash is done exactly once and equals md5sum's and
/// sha256sum's, no protocol violation was counted, and every process exits 0 at the end.
/// One scenario at a time: they time heartbeats of 300 ms.
@Suite(.serialized) struct ConformanceTests {
    static let scenarios = ["path", "bytes", "extend", "worker-kill", "coordinator-restart", "heartbeat-300",
                            "heartbeat-1000", "heartbeat-5000", "curve", "curve-key-removed", "disconnect", "slow"]

    /// Debian's python3 with python3-zmq and python3-protobuf (scripts/install-deps.sh).
    static let pythonReady: Bool = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        probe.arguments = ["-c", "import zmq, google.protobuf"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    static let suite = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Conformance/run.py")

    @Test(.enabled(if: pythonReady, "needs /usr/bin/python3 with python3-zmq and python3-protobuf (scripts/install-deps.sh): skipped"),
          arguments: ["python", "swift"], scenarios)
    func scenario(worker: String, name: String) throws {
        let run = try runScript("/usr/bin/python3", [Self.suite.path, "--photomill", PhotomillBinary.url.path, "--worker", worker,
                                                     "--scenario", name])
        #expect(run.status == 0, "\(run.output)")
    }
}
