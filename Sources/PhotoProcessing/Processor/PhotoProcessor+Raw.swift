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

import PhotomillCore

extension PhotoProcessor {
    /// A camera RAW's pictures from LibRaw (`RawDecoder`: the embedded preview when large
    /// enough, else a half-size rendering). Its metadata is read apart from them
    /// (`MetadataReader`): a RAW whose image data is missing still has its metadata; only
    /// its pictures fail.
    ///
    /// `bytes` may be a file to read regions of (`process(path:)` for a job that wants
    /// only pictures).
    func openRaw(_ bytes: RawBytes, format: MediaFormat, path: String) -> PictureSource {
        let limit = parameters.pixelLimit
        return PictureSource(picture: { side throws(ProcessingError) in
            try RawDecoder.picture(of: bytes, format: format, path: path, longestSide: side, pixelLimit: limit)
        })
    }
}
