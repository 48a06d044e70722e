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

/// A catalog that cannot be used: missing, not a photomill catalog, of a newer schema, in
/// use by another coordinator, or failing (permissions, a full disk, damage). The message
/// names the cause and what to do, in words, never in SQLite's or GRDB's internals.
public struct CatalogError: Error, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No catalog at the path (given to a command that only reads or changes one).
        public static let missing = Code(rawValue: "missing")
        /// A file that is not a photomill catalog: another application's SQLite database,
        /// or no SQLite database at all. Left untouched.
        public static let notACatalog = Code(rawValue: "not-a-catalog")
        public static let newerSchema = Code(rawValue: "newer-schema")
        /// Another coordinator holds the catalog (`holder` says which).
        public static let inUse = Code(rawValue: "in-use")
        /// Cannot be read or written: permissions, a read-only or full disk, damage.
        public static let unusable = Code(rawValue: "unusable")
    }

    public let code: Code
    public let path: String
    public let message: String
    public let underlying: (any Error)?
    /// For `inUse`: the coordinator that holds the catalog.
    public let holder: CatalogHolder?

    public init(
        _ code: Code,
        path: String,
        _ message: String,
        underlying: (any Error)? = nil,
        holder: CatalogHolder? = nil
    ) {
        self.code = code
        self.path = path
        self.message = message
        self.underlying = underlying
        self.holder = holder
    }

    public var description: String { "catalog \(path): \(message)" }
}
