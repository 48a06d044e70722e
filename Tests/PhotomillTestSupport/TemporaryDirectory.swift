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

/// A new, empty folder of its own under the temporary directory (`$TMPDIR`), named
/// `prefix-UUID`. Tests remove it when they care to; the system's cleaning takes the rest.
public func temporaryDirectory(_ prefix: String = "photomill-test") throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A path for a file that does not exist yet, in the temporary directory.
public func temporaryFile(_ prefix: String = "photomill-test", extension suffix: String = "") -> URL {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("\(prefix)-\(UUID().uuidString)" + (suffix.isEmpty ? "" : ".\(suffix)"))
}
