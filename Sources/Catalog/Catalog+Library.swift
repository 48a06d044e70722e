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

internal import GRDB

extension Catalog {
    /// The SQLite library this process runs with, as it reports itself
    /// (`sqlite3_libversion_number`, not the header's), e.g. "3.40.1": `photomill --version`.
    public static var sqliteVersion: String {
        // SQLITE_VERSION_NUMBER: major * 1 000 000 + minor * 1000 + patch.
        let number = Int(Database.sqliteLibVersionNumber)
        return "\(number / 1_000_000).\(number / 1000 % 1000).\(number % 1000)"
    }
}
