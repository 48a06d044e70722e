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

/// A row decoded by column name into `Value`: a public `Decodable` result (a search hit,
/// a worker, a failed task) that cannot itself conform to GRDB's protocols, since GRDB is
/// imported internally and no GRDB type or conformance leaves this module. Columns the
/// query does not select decode as nil; a wrong name or type throws, never shifts.
struct Decoded<Value: Decodable>: FetchableRecord, Decodable {
    let value: Value

    init(from decoder: any Decoder) throws { value = try Value(from: decoder) }
}

/// A count by one column, from `SELECT x AS key, COUNT(*) AS n … GROUP BY x`.
struct GroupCount<Key: Decodable>: FetchableRecord, Decodable {
    var key: Key
    var n: Int
}
