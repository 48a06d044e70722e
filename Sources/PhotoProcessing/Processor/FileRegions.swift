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

#if canImport(Glibc)
import Glibc
import PhotomillCore
#endif

/// A file read piece by piece (`pread`), for work that needs a few regions of a large file:
/// a camera RAW's embedded preview is a few hundred kilobytes of a file of 30–100 MB, and
/// reading the whole file (which `Data(contentsOf:)` does on Linux) costs as much as
/// decoding the preview. Reads, not a mapping: a mapped file truncated under a worker would
/// kill it with SIGBUS; a read of a shrunken file comes back short and fails cleanly.
final class FileRegions {
    let count: Int
    /// Bytes read so far (what the partial reads save, for tests to check).
    private(set) var bytesRead = 0
    private let file: RegularFile

    init(_ file: RegularFile) {
        self.file = file
        count = file.size
    }

    /// Nil when the file cannot be opened or is not a regular file.
    convenience init?(path: String) {
        guard let file = try? RegularFile(path: path) else { return nil }
        self.init(file)
    }

    /// The bytes of `range`, or nil when the file no longer holds them all.
    func read(_ range: Range<Int>) -> [UInt8]? {
        guard range.upperBound <= count, let bytes = file.read(range) else { return nil }
        bytesRead += bytes.count
        return bytes
    }
}
