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

/// One tile of a HEIF grid — a one-image HEIF (`HEIFGrid.tileFile`) — decoded by libheif
/// to RGB, as libheif decodes each tile of a grid it decodes whole (a decoder of its own
/// per tile, the same colour conversion): 8 bits a sample, or 16 (`rgb16`, spread over
/// the full range) for tiles deeper than 8 bits.
enum HEIFTileDecoder {
    /// The tile's pixels, in an image libvips owns. `file` is only read while this runs.
    static func decode(_ file: [UInt8]) throws(HEIFDecoding.Failure) -> VipsImageRef {
        let decoded = file.withUnsafeBytes { bytes in
            Result { () throws(HEIFDecoding.Failure) in
                let tile = try HEIFDecoding(reading: bytes)
                guard let handle = tile.handle else { throw HEIFDecoding.Failure(message: "no primary image") }
                return try tile.decode(handle, width: 0, height: 0)
            }
        }
        return try decoded.get()
    }
}
