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
internal import GRDB
import PhotomillCore

extension Catalog {
    /// Writes a copy of the catalog as one snapshot saw it, with SQLite's backup API on a
    /// reader (a running coordinator goes on writing meanwhile), into `destination`: a
    /// temporary file beside it, linked into place, so the copy is whole or absent and an
    /// existing file is never replaced. The copy is in rollback-journal mode: one file.
    /// Returns its size in bytes. Errors: `CatalogError` reading the catalog,
    /// `AtomicFileError` writing the copy.
    public func backup(to destination: String) throws -> Int64 {
        let url = URL(fileURLWithPath: destination)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).tmp"
        ).path
        defer { unlink(temporary) }
        let copy: DatabaseQueue
        do {
            copy = try DatabaseQueue(path: temporary)
        } catch {
            throw AtomicFileError(
                path: destination,
                message: "cannot create: \(CatalogError.cause(of: error, path: temporary).1)"
            )
        }
        do {
            try pool.backup(to: copy)
            try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            try copy.close()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL || error.resultCode == .SQLITE_IOERR {
            throw AtomicFileError(
                path: destination,
                message: "cannot write: \(CatalogError.cause(of: error, path: temporary).1)"
            )
        } catch {
            throw CatalogError(error, path: path, doing: "cannot copy")
        }
        // link(2), not rename(2): it fails rather than replace a file that appeared meanwhile.
        guard link(temporary, destination) == 0 else {
            throw AtomicFileError(path: destination, message: "cannot create: \(String(cString: strerror(errno)))")
        }
        return (try? FileStamp.of(destination).size) ?? 0
    }
}
