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

/// Whole-file output that a reader sees old or new, never in part: a temporary file in
/// the same folder (`.NAME.PID.RANDOM.tmp`), then rename(2). The exports, the samples and
/// the CLI's outputs all write this way.
public enum AtomicFile {
    /// Writes `data` to `url`; with `onlyIfChanged`, not when the file already holds
    /// exactly these bytes. Returns whether it wrote.
    @discardableResult
    public static func write(_ data: Data, to url: URL, onlyIfChanged: Bool = false) throws(AtomicFileError) -> Bool {
        if onlyIfChanged, let existing = try? RegularFile.contents(of: url.path, upTo: data.count + 1), existing == data
        {
            return false
        }
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        do {
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw AtomicFileError(path: url.path, message: "cannot write: \(error.fileSystemReason)")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let cause = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw AtomicFileError(path: url.path, message: "cannot rename into place: \(cause)")
        }
        return true
    }
}

/// A file `AtomicFile` could not write: which, and why.
public struct AtomicFileError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

extension Error {
    /// Why a file operation failed, in the words of the system (`Permission denied`, `No
    /// space left on device`), not Foundation's wrapping of them.
    /// Never Foundation's own codes ("NSCocoaErrorDomain error 512").
    public var fileSystemReason: String {
        let ns = self as NSError
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        guard ns.domain == NSCocoaErrorDomain else {
            return String(describing: self)
        }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        let posix: [Int: Int32] = [
            CocoaError.fileNoSuchFile.rawValue: ENOENT, CocoaError.fileReadNoSuchFile.rawValue: ENOENT,
            CocoaError.fileReadNoPermission.rawValue: EACCES, CocoaError.fileWriteNoPermission.rawValue: EACCES,
            CocoaError.fileWriteOutOfSpace.rawValue: ENOSPC, CocoaError.fileWriteVolumeReadOnly.rawValue: EROFS,
            CocoaError.fileWriteFileExists.rawValue: EEXIST,
        ]
        return posix[ns.code].map { String(cString: strerror($0)) } ?? "the file system refused it"
    }
}
