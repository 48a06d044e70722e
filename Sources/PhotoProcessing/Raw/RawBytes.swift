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

/// A camera RAW's bytes: all of them in memory (a file read whole, or bytes sent over the
/// wire), or a file to read regions of when only its embedded previews are wanted.
enum RawBytes {
    case memory(UnsafeRawBufferPointer)
    case file(FileRegions)

    var count: Int {
        switch self {
        case .memory(let bytes): bytes.count
        case .file(let file): file.count
        }
    }

    /// `body` on the bytes of `range`; nil when they lie past the end (or the file has
    /// shrunk since it was opened).
    func withBytes<T>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) -> T) -> T? {
        switch self {
        case .memory(let bytes):
            guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
            return body(UnsafeRawBufferPointer(rebasing: bytes[range]))
        case .file(let file):
            return file.read(range)?.withUnsafeBytes(body)
        }
    }

    /// `body` on every byte: what LibRaw needs to render the samples.
    func withAllBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T? {
        withBytes(0..<count, body)
    }
}
