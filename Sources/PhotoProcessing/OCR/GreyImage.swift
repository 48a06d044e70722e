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

/// An 8-bit one-channel image, the form tesseract reads.
struct GreyImage {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    /// The image turned clockwise by a multiple of 90°.
    func rotated(clockwise degrees: Int) -> GreyImage {
        switch ((degrees % 360) + 360) % 360 {
        case 90:
            var out = [UInt8](repeating: 0, count: pixels.count)
            // Output is height×width; output (x, y) comes from input (y, height-1-x).
            for y in 0..<width {
                for x in 0..<height { out[y * height + x] = pixels[(height - 1 - x) * width + y] }
            }
            return GreyImage(width: height, height: width, pixels: out)
        case 180:
            return GreyImage(width: width, height: height, pixels: pixels.reversed())
        case 270:
            var out = [UInt8](repeating: 0, count: pixels.count)
            // Output (x, y) comes from input (width-1-y, x).
            for y in 0..<width {
                for x in 0..<height { out[y * height + x] = pixels[x * width + (width - 1 - y)] }
            }
            return GreyImage(width: height, height: width, pixels: out)
        default:
            return self
        }
    }

    /// Nearest-neighbour reduction by an integer factor: enough for orientation detection.
    func reduced(by factor: Int) -> GreyImage {
        guard factor > 1 else { return self }
        let w = width / factor
        let h = height / factor
        var out = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w { out[y * w + x] = pixels[(y * factor) * width + x * factor] }
        }
        return GreyImage(width: w, height: h, pixels: out)
    }
}
