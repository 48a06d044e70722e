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

/// A JPEG thumbnail, upright, sRGB, without metadata.
public struct Thumbnail: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public let jpeg: [UInt8]

    public init(width: Int, height: Int, jpeg: [UInt8]) {
        self.width = width
        self.height = height
        self.jpeg = jpeg
    }
}
