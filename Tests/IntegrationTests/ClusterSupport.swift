import Foundation

/// A `photomill` process running in the background (coordinator or worker).
final class BackgroundProcess {
    let process = Process()
    let stderrURL: URL

    /// `netns`: run inside that network namespace (`ip netns exec` execs in place, so
    /// `pid` is photomill's). `launcher`: a command that execs photomill in place, given as
    /// its first argument. `environment` adds to (or overrides) this process's environment.
    init(_ arguments: [String], in directory: URL? = nil, netns: String? = nil, launcher: [String]? = nil,
         environment: [String: String] = [:]) throws {
        if let netns {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
            process.arguments = ["netns", "exec", netns, PhotomillBinary.url.path] + arguments
        } else if let launcher, let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = Array(launcher.dropFirst()) + [PhotomillBinary.url.path] + arguments
        } else {
            process.executableURL = PhotomillBinary.url
            process.arguments = arguments
        }
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        stderrURL = FileManager.default.temporaryDirectory.appendingPathComponent("photomill-bg-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }
    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits up to `seconds` for the process to exit; returns its status, or nil if it is still running.
    @discardableResult
    func wait(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: stderrURL)
    }
}

/// Reads the catalog with Python's sqlite3 module: an independent reader of the file.
enum CatalogQuery {
    static func rows(_ catalog: URL, _ sql: String) throws -> [[String]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sqlite3, sys
            con = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True, timeout=10)
            for row in con.execute(sys.argv[2]):
                print('\\t'.join('' if v is None else str(v) for v in row))
            """, catalog.path, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice   // "unable to open" while a catalog is being created
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map { $0.components(separatedBy: "\t") }
    }

    static func count(_ catalog: URL, _ sql: String) throws -> Int {
        Int(try rows(catalog, sql).first?.first ?? "") ?? -1
    }
}

/// A free TCP port on the loopback interface (bind to port 0, read it back, release it).
func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Polls until `condition` holds or `seconds` pass; returns whether it held.
func eventually(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(100_000)
    }
    return try condition()
}

/// A coordinator for `photos` (hash only) on an ipc socket in `directory`, and one worker
/// of one slot without --root: every photo comes to it as bytes. Both end with this value.
struct BytesFedCluster {
    let catalog: URL
    let coordinator: BackgroundProcess
    let worker: BackgroundProcess

    init(directory: URL, photos: URL) throws {
        catalog = directory.appendingPathComponent("catalog.sqlite")
        let endpoint = "ipc://\(directory.path)/coordinator.sock"
        coordinator = try BackgroundProcess(["coordinator", "--bind", endpoint, "--catalog", catalog.path, "--no-exports",
                                             "--kinds", "hash", photos.path])
        worker = try BackgroundProcess(["worker", "--connect", endpoint, "--slots", "1"])
    }
}
