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

/// An inotify instance (inotify(7)) through Glibc: one descriptor, non-blocking and
/// closed on exec, freed with its watches when this object goes.
final class Inotify: @unchecked Sendable {
    // @unchecked: `descriptor` never changes; inotify_add_watch(2) and inotify_rm_watch(2)
    // may be called from any thread, `read` only from the watcher's.
    let descriptor: Int32

    init() throws(WatchError) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            let code = errno
            throw WatchError(
                .cannotWatch,
                code == EMFILE
                    ? "cannot start watching: this user has every inotify instance the kernel allows (fs.inotify.max_user_instances); raise it, or stop a program that watches"
                    : "cannot start watching: \(String(cString: strerror(code)))"
            )
        }
    }

    deinit { close(descriptor) }

    /// A watch of the folder at `path` (not following a symbolic link): its descriptor, or errno.
    func add(_ path: String, mask: WatchEvent.Mask = .watched) -> Result<Int32, Errno> {
        let watch = PathBytes.withCString(path) { inotify_add_watch(descriptor, $0, mask.rawValue) }
        return watch >= 0 ? .success(watch) : .failure(Errno(code: errno))
    }

    func remove(_ watch: Int32) { _ = inotify_rm_watch(descriptor, watch) }

    /// One event as read: the watch it came from, its bits, the rename cookie, the name.
    struct Raw: Sendable, Hashable {
        var watch: Int32
        var mask: WatchEvent.Mask
        var cookie: UInt32
        var name: String
    }

    /// What the queue holds now, up to `buffer`'s size (a non-blocking read: empty when
    /// nothing is queued). Names are bytes (`PathBytes`).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> [Raw] {
        var count = 0
        repeat { count = Glibc.read(descriptor, buffer.baseAddress, buffer.count) } while count < 0 && errno == EINTR
        guard count > 0 else { return [] }
        var events: [Raw] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let watch = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let cookie = buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            guard offset + header + length <= count else { break }
            let nameBytes = UnsafeRawBufferPointer(rebasing: buffer[(offset + header)..<(offset + header + length)])
            let name = PathBytes.string(nameBytes.prefix { $0 != 0 })
            events.append(Raw(watch: watch, mask: WatchEvent.Mask(rawValue: mask), cookie: cookie, name: name))
            offset += header + length
        }
        return events
    }

    /// An errno of a watch that could not be added.
    struct Errno: Error, Sendable, Hashable {
        let code: Int32
        var description: String { String(cString: strerror(code)) }
    }
}

/// Watching could not start: its code, and a message with what to do.
public struct WatchError: Error, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case cannotWatch = "cannot-watch"
    }

    public let code: Code
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
