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
import PhotomillCore

/// The process that holds a catalog as its one coordinator, as its lock file says.
public struct CatalogHolder: Sendable, Hashable, Codable, CustomStringConvertible {
    public var pid: Int32
    public var host: String
    /// Wall-clock seconds since 1970.
    public var since: Double
    public var command: String

    public var description: String {
        "`\(command)` (pid \(pid) on \(host), since \(Date(timeIntervalSince1970: since).formatted(.iso8601)))"
    }
}

/// One coordinator per catalog: an exclusive flock(2) on `CATALOG-lock`, held by `run`,
/// `coordinator` and `forget` for as long as they have the catalog open (docs/catalog.md,
/// "One coordinator"). The kernel drops the lock when its process dies, however it dies,
/// so a dead holder's lock is simply taken; the file's content (the holder, as JSON) only
/// names the holder in the refusal. Readers never touch it. Not SQLite's own file: a
/// lock on the catalog itself would, on NFS, become a POSIX lock on the bytes SQLite locks.
final class CatalogLock: @unchecked Sendable {
    // @unchecked: `descriptor` is written in `init` and in `release()`, which runs once,
    // under `lock`.
    let path: String
    private let lock = NSLock()
    private var descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    static func path(of catalog: String) -> String { catalog + "-lock" }

    /// Takes the lock or throws `inUse` naming the holder. Never waits.
    static func acquire(catalog: String) throws(CatalogError) -> CatalogLock {
        let path = path(of: catalog)
        // A holder that ends unlinks the file while it still holds it: a process that opened
        // the old file in between locks a file no one else sees, so it checks and opens again.
        for _ in 0..<10 {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                let code = errno
                let folder = (path as NSString).deletingLastPathComponent
                let remedy =
                    code == EROFS
                    ? "its file system is mounted read-only; remount it read-write"
                    : code == EACCES || code == EPERM
                        ? "this user may not create files in \(folder); run as its owner"
                        : "check \(folder)"
                throw CatalogError(
                    .unusable,
                    path: catalog,
                    """
                    cannot create its lock file \(path) (\(String(cString: strerror(code)))): \(remedy), or pass another --catalog
                    """
                )
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let code = errno
                let holder = readHolder(descriptor)
                close(descriptor)
                if code == EWOULDBLOCK {
                    throw CatalogError(
                        .inUse,
                        path: catalog,
                        """
                        in use by another coordinator: \(holder.map(\.description) ?? "a process that is starting") \
                        holds \(path); stop it first, or pass another --catalog
                        """,
                        holder: holder
                    )
                }
                throw CatalogError(
                    .unusable,
                    path: catalog,
                    """
                    cannot lock \(path): \(String(cString: strerror(code))); keep the catalog on a local disk \
                    of the coordinator's host (docs/catalog.md)
                    """
                )
            }
            var held = stat()
            var named = stat()
            guard fstat(descriptor, &held) == 0, stat(path, &named) == 0,
                held.st_dev == named.st_dev, held.st_ino == named.st_ino
            else {
                close(descriptor)
                continue
            }
            let holder = CatalogHolder(
                pid: getpid(),
                host: hostName(),
                since: WallClock.now(),
                command: CommandLine.arguments.map {
                    ($0 as NSString).lastPathComponent == "photomill" ? "photomill" : $0
                }
                .joined(separator: " ")
            )
            let text = Array((try? JSONEncoder().encode(holder)) ?? Data())
            guard ftruncate(descriptor, 0) == 0, pwrite(descriptor, text, text.count, 0) == text.count else {
                let cause = String(cString: strerror(errno))
                close(descriptor)
                throw CatalogError(.unusable, path: catalog, "cannot write its lock file \(path): \(cause)")
            }
            return CatalogLock(path: path, descriptor: descriptor)
        }
        throw CatalogError(.inUse, path: catalog, "its lock file \(path) keeps changing hands; run the command again")
    }

    /// Unlinks the file, then lets go: a clean exit leaves no lock file behind.
    func release() {
        lock.withLock {
            guard descriptor >= 0 else { return }
            unlink(path)
            close(descriptor)
            descriptor = -1
        }
    }

    /// The holder its lock file names when that process is known to have died without
    /// letting go (killed, or its host crashed before a reboot): a pid on this host that no
    /// longer runs. Nil when no one holds it, when it ran on another host, or when it runs.
    /// Read without locking, so that a reader never stands in a coordinator's way.
    static func deadHolder(catalog: String) -> CatalogHolder? {
        let descriptor = open(path(of: catalog), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let holder = readHolder(descriptor), holder.host == hostName(),
            kill(holder.pid, 0) == -1, errno == ESRCH
        else { return nil }
        return holder
    }

    /// The coordinator that holds the catalog now, if one does (its lock is tried shared,
    /// never taken, never created). Read without waiting.
    static func liveHolder(catalog: String) -> CatalogHolder? {
        let descriptor = open(path(of: catalog), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_SH | LOCK_NB) != 0 else {
            flock(descriptor, LOCK_UN)
            return nil
        }
        return readHolder(descriptor)
            ?? CatalogHolder(pid: 0, host: "?", since: 0, command: "a coordinator that is starting")
    }

    private static func readHolder(_ descriptor: Int32) -> CatalogHolder? {
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        return try? JSONDecoder().decode(CatalogHolder.self, from: Data(bytes[0..<count]))
    }

    private static func hostName() -> String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count) == 0 else { return "?" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
