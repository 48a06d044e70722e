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

import Catalog
import Foundation
import PhotomillCore

extension Scanner {
    /// An entry of a folder as the walk lists it: its name and its lstat(2), taken through
    /// the folder's descriptor (fstatat(2) of the name alone: no path walked again from `/`
    /// for each file).
    struct FolderEntry {
        var name: String
        var info: Result<stat, FileStampError>

        var isFolder: Bool { if case .success(let info) = info { info.st_mode & S_IFMT == S_IFDIR } else { false } }
    }

    /// The entries of the folder at `path` (not "." and ".."), each with its lstat(2),
    /// in walking order: by the bytes of each name, with a "/" after a folder's, so that
    /// a walk depth-first gives every path under a folder in the order of its bytes, the
    /// catalog's (`CatalogOrder`; "a-b" < "a/…" although "a" < "a-b"). The errno when it
    /// cannot be listed.
    static func entries(ofFolder path: String) -> Result<[FolderEntry], FileStampError> {
        let descriptor = PathBytes.withCString(path) { open($0, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else { return .failure(FileStampError(code: errno)) }
        guard let folder = fdopendir(descriptor) else {
            let code = errno
            close(descriptor)
            return .failure(FileStampError(code: code))
        }
        defer { closedir(folder) }
        var entries: [FolderEntry] = []
        var keys: [(key: String, index: Int)] = []
        while let entry = readdir(folder) {
            let (name, info) = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    name in
                    var info = stat()
                    let result: Result<stat, FileStampError> =
                        fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0
                        ? .success(info) : .failure(FileStampError(code: errno))
                    return (PathBytes.string(UnsafeRawBufferPointer(start: name, count: strlen(name))), result)
                }
            }
            guard name != "." && name != ".." else { continue }
            let listed = FolderEntry(name: name, info: info)
            keys.append((listed.isFolder ? name + "/" : name, entries.count))
            entries.append(listed)
        }
        // The keys sorted, not the entries: a stat is 144 bytes to move.
        keys.sort { compareBytes($0.key, $1.key) < 0 }
        return .success(keys.map { entries[$0.index] })
    }

    /// The order of two strings' UTF-8 bytes (SQLite's BINARY collation): negative, 0, positive.
    static func compareBytes(_ left: String, _ right: String) -> Int {
        let order = left.utf8.withContiguousStorageIfAvailable { a in
            right.utf8.withContiguousStorageIfAvailable { b in
                let common = min(a.count, b.count)
                let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
                return order != 0 ? Int(order) : a.count - b.count
            }
        }
        if let order = order ?? nil { return order }
        // A string not stored as UTF-8 (bridged): its bytes one by one.
        return left.utf8.lexicographicallyPrecedes(right.utf8) ? -1 : left.utf8.elementsEqual(right.utf8) ? 0 : 1
    }

    /// The catalog's photos under a scanned folder, read a piece at a time in path order
    /// beside a walk that goes in the same order: each file the walk finds is compared with
    /// the row at its path without a statement of its own, and the photos it passes
    /// without finding are those that may be missing (`passed`; the walk may still find
    /// them elsewhere, through a link, or moved: `Scanner.seen` decides).
    struct CatalogOrder {
        enum Answer {
            case photo(KnownFile)
            case absent
            /// The path does not come after the last one asked about: ask the catalog.
            case outOfOrder
        }

        static let pieceSize = 1024
        let catalog: Catalog
        let prefix: String
        /// Photos added after the walk began are not passed (they were not there to find).
        let lastId: Int64
        private var rows: [(path: String, file: KnownFile)] = []
        private var index = 0
        private var lastRead: String?
        private var exhausted = false
        private var lastAsked: String?
        /// Photos present in the catalog when the walk began, passed without being found.
        private(set) var passed: [Int64] = []

        init(catalog: Catalog, folder: String, lastId: Int64) {
            self.catalog = catalog
            prefix = folder.hasSuffix("/") ? folder : folder + "/"
            self.lastId = lastId
        }

        /// What the catalog has at `path`, a path under the folder after every one asked
        /// about before (otherwise `outOfOrder`).
        mutating func photo(at path: String) throws(CatalogError) -> Answer {
            if let lastAsked, Scanner.compareBytes(lastAsked, path) >= 0 { return .outOfOrder }
            lastAsked = path
            while let row = try head() {
                let order = Scanner.compareBytes(row.path, path)
                if order > 0 { return .absent }
                index += 1
                if order == 0 { return .photo(row.file) }
                pass(row.file)
            }
            return .absent
        }

        /// After the walk: every photo not reached is passed.
        mutating func finish() throws(CatalogError) {
            while let row = try head() {
                index += 1
                pass(row.file)
            }
        }

        private mutating func pass(_ file: KnownFile) {
            if file.id <= lastId && !file.missing { passed.append(file.id) }
        }

        private mutating func head() throws(CatalogError) -> (path: String, file: KnownFile)? {
            if index == rows.count {
                guard !exhausted else { return nil }
                if let ahead {
                    rows = try ahead.join().get()
                    self.ahead = nil
                } else {
                    rows = try catalog.photos(under: prefix, after: lastRead, limit: Self.pieceSize)
                }
                index = 0
                exhausted = rows.count < Self.pieceSize
                lastRead = rows.last?.path ?? lastRead
                if rows.isEmpty { return nil }
                if !exhausted { readAhead() }
            }
            return rows[index]
        }

        /// The next piece, read on the rows thread while the walk lists folders and compares
        /// this one (the two cores share a scan's work). Its paths all come after every path
        /// of this piece, which the walk has not reached: the scan writes nothing there
        /// before it gets there.
        private mutating func readAhead() {
            let (catalog, prefix, after) = (self.catalog, self.prefix, lastRead)
            ahead = Self.rowsThread.completion { _ in
                Result { () throws(CatalogError) in
                    try catalog.photos(under: prefix, after: after, limit: Self.pieceSize)
                }
            }
        }

        private var ahead: Completion<Result<[(path: String, file: KnownFile)], CatalogError>>?
        /// One thread for every walk's next piece (a scan walks one root at a time).
        private static let rowsThread = BlockingExecutor(name: "pm-scan-rows")
    }
}
