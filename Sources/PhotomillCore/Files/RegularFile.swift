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

/// A regular file, opened so that opening it cannot block: every photo, sidecar, key and
/// list the coordinator, a worker or the CLI reads is opened through here.
///
/// `open(2)` of a FIFO without a writer waits for one for good, and so does a read of a
/// FIFO, a terminal or some devices; a file reader stuck in either never comes back, and
/// its thread holds up everything behind it (shutdown too). So the file is opened with
/// `O_NONBLOCK` (a FIFO opens at once, a socket fails with ENXIO), `fstat` says what it
/// is, anything but a regular file is refused with an error that says what it is, and
/// only then is `O_NONBLOCK` cleared (it means nothing to a regular file's reads, but a
/// file system may still honour it). `O_NOCTTY`: a terminal never becomes ours.
///
/// Reads are `pread`s, never a mapping: a mapped file truncated under the reader would
/// kill the process with SIGBUS; a read of a shrunken file comes back short.
public final class RegularFile {
    public let path: String
    /// Size and modification time when it was opened (`fstat`).
    public let stamp: FileStamp
    private let descriptor: Int32

    /// Opens `path` (its bytes, `PathBytes`), following symbolic links.
    public init(path: String) throws(FileOpenError) {
        self.path = path
        let descriptor = PathBytes.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            let code = errno
            // A socket (or a device with no driver) cannot be opened at all: say which.
            var info = stat()
            if code == ENXIO || code == EOPNOTSUPP, PathBytes.withCString(path, { stat($0, &info) }) == 0,
                let type = FileOpenError.FileType(mode: info.st_mode)
            {
                throw FileOpenError(path: path, code: .notRegular(type))
            }
            throw FileOpenError(path: path, code: .system(code))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw FileOpenError(path: path, code: .system(code))
        }
        if let type = FileOpenError.FileType(mode: info.st_mode) {
            close(descriptor)
            throw FileOpenError(path: path, code: .notRegular(type))
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        self.descriptor = descriptor
        stamp = FileStamp(info)
    }

    deinit { close(descriptor) }

    /// Bytes when it was opened.
    public var size: Int { Int(stamp.size) }

    /// The file from its start to its end, or its first `limit` bytes when it holds more.
    public func read(upTo limit: Int = .max) throws(FileOpenError) -> Data {
        var data = Data(count: min(limit, size))
        var filled = 0
        while filled < limit {
            if filled == data.count { data.count = min(limit, max(data.count * 2, filled + 65536)) }
            let got = data.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + filled, $0.count - filled, off_t(filled))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw FileOpenError(path: path, code: .system(errno))
            }
            if got == 0 { break }
            filled += got
        }
        data.count = filled
        return data
    }

    /// The bytes of `range`, or nil when the file no longer holds them all (or a read fails).
    public func read(_ range: Range<Int>) -> [UInt8]? {
        guard range.lowerBound >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: range.count)
        var done = 0
        while done < range.count {
            let got = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + done, range.count - done, off_t(range.lowerBound + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            done += got
        }
        return bytes
    }

    /// Calls `body` with the file's bytes in pieces of `chunk` bytes, from start to end.
    public func forEachPiece(of chunk: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) -> Void) throws(FileOpenError) {
        var buffer = [UInt8](repeating: 0, count: chunk)
        var offset = 0
        while true {
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            if got < 0 {
                if errno == EINTR { continue }
                throw FileOpenError(path: path, code: .system(errno))
            }
            if got == 0 { return }
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
            offset += got
        }
    }

    /// The whole file at `path` (`read()` of a `RegularFile`).
    public static func contents(of path: String, upTo limit: Int = .max) throws(FileOpenError) -> Data {
        try RegularFile(path: path).read(upTo: limit)
    }
}

/// A file that could not be opened or read as a regular file: which, and why.
public struct FileOpenError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// open, fstat or read failed with this errno.
        case system(Int32)
        /// It is not a regular file (it was not read).
        case notRegular(FileType)
    }

    /// What a file that is not a regular file is.
    public enum FileType: String, Sendable, Equatable {
        case fifo = "a FIFO (named pipe)"
        case socket = "a socket"
        case characterDevice = "a character device"
        case blockDevice = "a block device"
        case folder = "a folder"

        /// Nil for a regular file (and a symbolic link, which `stat` never reports).
        init?(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFIFO: self = .fifo
            case S_IFSOCK: self = .socket
            case S_IFCHR: self = .characterDevice
            case S_IFBLK: self = .blockDevice
            case S_IFDIR: self = .folder
            default: return nil
            }
        }
    }

    public let path: String
    public let code: Code

    public init(path: String, code: Code) {
        self.path = path
        self.code = code
    }

    /// It does not exist (any more), or a folder on its path is gone.
    public var isGone: Bool { code == .system(ENOENT) || code == .system(ENOTDIR) }

    /// The cause without the path: the system's words, or what the file is.
    public var cause: String {
        switch code {
        case .system(let number): String(cString: strerror(number))
        case .notRegular(let type): "it is \(type.rawValue), not a regular file"
        }
    }

    /// The path as people read it (`PathBytes.display`) and the cause.
    public var description: String { "\(PathBytes.display(path)): \(cause)" }
}
