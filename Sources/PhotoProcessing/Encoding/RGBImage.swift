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

/// Packed 8-bit RGB pixels, row by row from the top left.
public struct RGBImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// width × height × 3 bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(
            width > 0 && height > 0 && pixels.count == width * height * 3,
            "\(pixels.count) bytes are not a \(width)×\(height) RGB image"
        )
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public struct Pixel: Sendable, Hashable, CustomStringConvertible {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8

        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        public var description: String { "(\(red), \(green), \(blue))" }
    }

    public subscript(x x: Int, y y: Int) -> Pixel {
        let index = (y * width + x) * 3
        return Pixel(red: pixels[index], green: pixels[index + 1], blue: pixels[index + 2])
    }
}
