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

/// How photomill tells that a file changed: its size and its modification time in
/// nanoseconds, as stat(2) reports them. The scan records it (`photos.size`, `mtimeNs`);
/// a worker, and the coordinator before it sends a file as bytes, check it again, since a
/// file changed since the scan would give results for content the catalog does not describe.
public struct FileStamp: Hashable, Sendable, CustomStringConvertible {
    public var size: Int64
    /// Nanoseconds since the Unix epoch.
    public var mtimeNs: Int64

    public init(size: Int64, mtimeNs: Int64) {
        self.size = size
        self.mtimeNs = mtimeNs
    }

    /// The stamp of what stat(2), lstat(2) or fstat(2) returned.
    public init(_ info: stat) {
        size = Int64(info.st_size)
        mtimeNs = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    /// stat(2) of `path`, following symbolic links.
    public static func of(_ path: String) throws(FileStampError) -> FileStamp {
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else { throw FileStampError(code: errno) }
        return FileStamp(info)
    }

    /// The message of a file found changed, naming it: the class that goes with it is
    /// `ErrorClass.fileChanged`.
    public func changedMessage(path: String, now current: FileStamp) -> String {
        "\(path): changed since it was scanned (size \(size) → \(current.size)); the coordinator scans it again and processes it anew"
    }

    public var description: String { "\(size) bytes, mtime \(mtimeNs) ns" }
}

/// stat(2) failed: `errno` and its text.
public struct FileStampError: Error, Sendable, CustomStringConvertible {
    public let code: Int32
    public var description: String { String(cString: strerror(code)) }

    public init(code: Int32) { self.code = code }
}
