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

import Foundation
import Logging
import PhotomillCore
import ZeroMQ

/// The public keys of the workers a coordinator admits: a text file with one Z85 key
/// (40 characters) per line, optionally followed by a label (`KEY desktop-1`); blank
/// lines and comment lines (starting with `#`) are skipped. No key starts with `#`: the
/// first character of a Z85 group is at most the 83rd (2^32 / 85^4 < 83), `#` the 85th.
public struct AllowList: Sendable, Equatable {
    public var keys: Set<String>

    public static func load(_ path: String) throws(AdmissionError) -> AllowList {
        let text: String
        do {
            text = String(decoding: try RegularFile.contents(of: path), as: UTF8.self)
        } catch {
            throw AdmissionError(path, "cannot read the allow-list: \(error.cause)")
        }
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws(AdmissionError) -> AllowList {
        var keys: Set<String> = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let key = String(trimmed.prefix { !$0.isWhitespace })
            guard isPublicKey(key) else {
                throw AdmissionError(
                    "\(file):\(number + 1)",
                    "not a Z85 public key (40 characters, from `photomill keys generate`)"
                )
            }
            keys.insert(key)
        }
        return AllowList(keys: keys)
    }

    /// 40 Z85 characters that decode to 32 bytes.
    public static func isPublicKey(_ text: String) -> Bool {
        text.utf8.count == Curve.keyLength && (try? Curve.z85Decode(text))?.count == 32
    }
}

/// Why the allow-list could not be used; names the file (and line).
public struct AdmissionError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var message: String
    init(_ file: String, _ message: String) {
        self.file = file
        self.message = message
    }
    public var description: String { "\(file): \(message)" }
}

/// The coordinator's ZAP handler (RFC 27): a REP socket at inproc://zeromq.zap.01 on the
/// coordinator's context, owned by a thread of its own, which libzmq asks about every
/// CURVE handshake. It admits a client whose public key is in the allow-list and answers
/// that key as the connection's User-Id, so the coordinator can tell which key each
/// worker used. The list is read again on `reload()` (SIGHUP) and when the file changes
/// (checked every second); a list that does not parse is refused and the old one kept.
public final class Admission: @unchecked Sendable {
    // @unchecked: `list`, `generation`, `reloadRequested` and `stopping` are guarded by
    // `lock`; the socket belongs to the handler thread; `thread` is written by `start` and
    // read by `stop`, both on the coordinator's thread.
    public static let zapDomain = "photomill"
    public let path: String
    private let logger: Logger
    private let lock = NSLock()
    private var list: AllowList
    private var _generation = 0
    private var reloadRequested = false
    private var stopping = false
    private var thread: OwnedThread<Void>?

    public init(path: String, logger: Logger) throws(AdmissionError) {
        self.path = path
        self.logger = logger
        list = try AllowList.load(path)
    }

    /// Binds the handler on `context`: call it before the ROUTER binds, so that no
    /// handshake can happen without it.
    func start(context: ZMQContext) throws(ZMQError) {
        let socket = try ZMQSocket(context: context, type: .rep)
        try socket.set(.linger, to: 0)
        try socket.bind("inproc://zeromq.zap.01")
        let stamp = Self.stamp(path)
        // The socket moves to the handler thread here and is used only there.
        thread = OwnedThread(name: "pm-zap") { [self] in serve(socket, stamp: stamp) }
        if keyCount == 0 {
            logger.warning(
                "the allow-list has no key: no worker will be admitted until one is added",
                metadata: ["allow.file": "\(path)"]
            )
        } else {
            logger.info("admitting worker keys", metadata: ["allow.file": "\(path)", "allow.keys": "\(keyCount)"])
        }
    }

    /// Asks the handler thread to read the allow-list again (SIGHUP).
    public func reload() { lock.withLock { reloadRequested = true } }

    /// Bumped at each successful reload; the coordinator then checks its connected workers.
    var generation: Int { lock.withLock { _generation } }

    public var keyCount: Int { lock.withLock { list.keys.count } }

    func allows(_ key: String) -> Bool { lock.withLock { list.keys.contains(key) } }

    func stop() {
        lock.withLock { stopping = true }
        thread?.join()
    }

    private func serve(_ socket: ZMQSocket, stamp initial: ListFile?) {
        var stamp = initial
        var lastCheck = MonotonicInstant.now()
        var refusedLogged: [String: MonotonicInstant] = [:]
        var poller = Poller()
        _ = poller.register(socket)
        while !lock.withLock({ stopping }) {
            if (try? poller.poll(timeoutMilliseconds: 200))?.isEmpty == false {
                while let request = try? socket.receive(dontWait: true) {
                    let reply = answer(request, refusedLogged: &refusedLogged)
                    _ = try? socket.send(reply, dontWait: true)
                }
            }
            let time = MonotonicInstant.now()
            let asked = lock.withLock { () -> Bool in
                defer { reloadRequested = false }
                return reloadRequested
            }
            guard asked || time - lastCheck >= 1 else { continue }
            lastCheck = time
            let current = Self.stamp(path)
            if asked || current != stamp {
                stamp = current
                reloadList(asked: asked)
            }
        }
        socket.close()
    }

    private func reloadList(asked: Bool) {
        do {
            let fresh = try AllowList.load(path)
            let old = lock.withLock { () -> AllowList in
                defer {
                    list = fresh
                    _generation += 1
                }
                return list
            }
            let removed = old.keys.subtracting(fresh.keys).count
            let added = fresh.keys.subtracting(old.keys).count
            logger.notice(
                asked ? "allow-list reloaded (SIGHUP)" : "allow-list reloaded (file changed)",
                metadata: [
                    "allow.file": "\(path)", "allow.keys": "\(fresh.keys.count)", "allow.added": "\(added)",
                    "allow.removed": "\(removed)",
                ]
            )
        } catch {
            logger.error(
                asked
                    ? "allow-list not reloaded (SIGHUP): keeping the previous keys"
                    : "allow-list not reloaded (file changed): keeping the previous keys",
                metadata: ["allow.keys": "\(keyCount)", "error": "\(error)"]
            )
        }
    }

    /// Request: version, request id, domain, address, identity, mechanism, credentials
    /// (CURVE: the client's 32-byte public key). Reply: version, request id, status code,
    /// status text, user id, metadata.
    private func answer(_ request: [Data], refusedLogged: inout [String: MonotonicInstant]) -> [Data] {
        let id = request.count > 1 ? request[1] : Data()
        guard request.count >= 7, request[0] == Data("1.0".utf8), request[5] == Data("CURVE".utf8),
            request[6].count == 32, let key = try? Curve.z85Encode(request[6])
        else {
            return [Data("1.0".utf8), id, Data("400".utf8), Data("CURVE only".utf8), Data(), Data()]
        }
        if allows(key) {
            return [Data("1.0".utf8), id, Data("200".utf8), Data("OK".utf8), Data(key.utf8), Data()]
        }
        // Public keys are not secret; naming the refused one is what the operator needs
        // to add it. At most once a minute per key, so a stranger cannot flood the log.
        let time = MonotonicInstant.now()
        if time - (refusedLogged[key] ?? .distantPast) > 60 {
            if refusedLogged.count > 1000 { refusedLogged.removeAll() }
            refusedLogged[key] = time
            let address = String(decoding: request[3], as: UTF8.self)
            logger.warning(
                "refused a worker: its key is not in the allow-list",
                metadata: ["peer.address": "\(address)", "worker.key": "\(key)", "allow.file": "\(path)"]
            )
        }
        return [Data("1.0".utf8), id, Data("400".utf8), Data("key not allowed".utf8), Data(), Data()]
    }

    /// The list's file as last seen: a new inode (replaced by rename) or a new stamp
    /// (written in place) means it changed.
    private struct ListFile: Equatable {
        var inode: UInt64
        var stamp: FileStamp
    }

    private static func stamp(_ path: String) -> ListFile? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return ListFile(inode: UInt64(info.st_ino), stamp: FileStamp(info))
    }
}
