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

extension CatalogError {
    /// What SQLite (through GRDB) or the file system said, as a cause a person can act on.
    /// Never the statement that failed: GRDB's own statements (`grdb_issue_102`, the WAL
    /// set-up) mean nothing to the user.
    init(_ error: any Error, path: String, doing action: String) {
        let (code, cause) = Self.cause(of: error, path: path)
        self.init(code, path: path, "\(action): \(cause)", underlying: error)
    }

    /// The code and the words for what went wrong with the SQLite file at `path`.
    static func cause(of error: any Error, path: String) -> (Code, String) {
        guard let database = error as? DatabaseError else { return (.unusable, error.fileSystemReason) }
        let folder = (path as NSString).deletingLastPathComponent
        switch database.resultCode {
        case .SQLITE_READONLY:
            return (.unusable, readOnlyCause(database.extendedResultCode, path: path, folder: folder))
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            return (.unusable, cannotOpenCause(path: path, folder: folder))
        case .SQLITE_FULL:
            return (.unusable, "the disk is full; free some space on it (or move the file) and run the command again")
        case .SQLITE_IOERR:
            return (
                .unusable,
                "input/output error (a failing disk, or a network share that went away); check the disk and run the command again"
            )
        case .SQLITE_CORRUPT:
            return (
                .unusable,
                "the file is damaged; restore a copy (`photomill backup` makes them), or move it away and run `photomill run` to build a new catalog"
            )
        case .SQLITE_NOTADB:
            return (
                .notACatalog,
                "not a photomill catalog (not an SQLite database at all); pass --catalog with a photomill catalog, or a new file name"
            )
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return (
                .unusable,
                "locked by another process that does not let go (a `sqlite3` shell or a backup holding a write transaction); end it and run the command again"
            )
        default:
            return (.unusable, "SQLite says: \(database.message ?? "error \(database.resultCode.rawValue)")")
        }
    }

    private static func readOnlyCause(_ code: ResultCode, path: String, folder: String) -> String {
        if code == .SQLITE_READONLY_DIRECTORY
            || (FileManager.default.fileExists(atPath: path) && access(folder, W_OK) != 0)
        {
            return
                "this user may not create files in \(folder) (SQLite keeps its journal beside the catalog); run as the catalog's owner, or copy the catalog to a folder you may write"
        }
        if code == .SQLITE_READONLY_RECOVERY || code == .SQLITE_READONLY_CANTINIT || code == .SQLITE_READONLY_CANTLOCK {
            return
                "a process that wrote it stopped without closing it, and this user may not repair it; run `photomill status` once as the catalog's owner"
        }
        return
            "the file is read-only for this user, or its file system is mounted read-only; check `ls -l \(path)` and `mount`, or run as the catalog's owner"
    }

    private static func cannotOpenCause(path: String, folder: String) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder, isDirectory: &isDirectory)
            || !isDirectory.boolValue
        {
            return "no folder \(folder) to hold it; create the folder, or pass another --catalog"
        }
        if FileManager.default.fileExists(atPath: path) && access(path, R_OK) != 0 {
            return
                "this user may not read it (permission denied); run as the catalog's owner, or change its permissions"
        }
        if access(folder.isEmpty ? "." : folder, W_OK) != 0 {
            return
                "this user may not create files in \(folder) (permission denied); run as its owner, or pass another --catalog"
        }
        return "cannot open the file; check that it is a regular file this user may read and write"
    }
}
