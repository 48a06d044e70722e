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
import PhotomillCore

extension PerceptualHash {
    /// The side of the grey picture the hash is computed from.
    public static let side = 32
    /// The lowest frequencies kept: an 8 × 8 block, 64 bits.
    static let kept = 8

    /// The DCT hash of a 32 × 32 grey picture (row by row, 8-bit), as imagehash's `phash`
    /// computes it (Krawetz's "Looks Like It"): a 2-D DCT-II, the 8 × 8 lowest frequencies
    /// (the DC term included), each bit set when its coefficient is above their median (the
    /// mean of the 32nd and 33rd). DCT-II without normalisation, as scipy's `fftpack.dct`:
    /// its factor 2 is the same for every coefficient, so it is left out; computed directly,
    /// not through an FFT. Where a coefficient is 0 in exact arithmetic (every AC term of a
    /// flat picture, the odd ones of a mirrored picture), the sums leave rounding noise
    /// (about 1e-10; one grey level's step makes terms near 1) whose sign would set bits at
    /// random — a flat grey picture and its re-encoding one level brighter came out 27 bits
    /// apart — so terms below `noise` count as 0: every flat picture hashes to the DC bit
    /// alone, 0x8000000000000000. (imagehash keeps scipy's noise: there, such bits depend on
    /// the grey level.)
    public init(grey pixels: [UInt8]) {
        self = Self.hashes(grey: pixels).hash
    }

    /// This hash and the `DetailHash` of a 32 × 32 grey picture, from one DCT: the 64-bit
    /// hash's 8 × 8 frequencies are the top left of the detail hash's 16 × 16.
    public static func hashes(grey pixels: [UInt8]) -> (hash: PerceptualHash, detail: DetailHash) {
        let k = DetailHash.kept
        let block = lowFrequencies(grey: pixels, kept: k)
        let coefficients = (0..<kept).flatMap { u in block[u * k..<u * k + kept] }
        let sorted = coefficients.sorted()
        let median = (sorted[kept * kept / 2 - 1] + sorted[kept * kept / 2]) / 2
        var value: UInt64 = 0
        for coefficient in coefficients { value = value << 1 | (coefficient > median ? 1 : 0) }
        let mean = block.dropFirst().reduce(0, +) / Double(block.count - 1)
        return (PerceptualHash(value), DetailHash(bits: block.map { $0 > mean }))
    }

    /// The 2-D DCT-II of a 32 × 32 grey picture at its `k` × `k` lowest frequencies, row by
    /// row (u, then v); terms below `noise` as 0.
    static func lowFrequencies(grey pixels: [UInt8], kept k: Int) -> [Double] {
        precondition(pixels.count == side * side, "a 32 × 32 picture")
        let n = side
        // columns[u][x]: the DCT of column x along y, for the kept frequencies u only.
        var columns = [Double](repeating: 0, count: k * n)
        for u in 0..<k {
            for y in 0..<n {
                let c = cosines[u * n + y]
                for x in 0..<n { columns[u * n + x] += c * Double(pixels[y * n + x]) }
            }
        }
        var coefficients = [Double](repeating: 0, count: k * k)
        for u in 0..<k {
            for v in 0..<k {
                var sum = 0.0
                for x in 0..<n { sum += cosines[v * n + x] * columns[u * n + x] }
                coefficients[u * k + v] = abs(sum) < noise ? 0 : sum
            }
        }
        return coefficients
    }

    /// A grey picture of `width` × `height` (row by row, 8-bit) squeezed to `side` × `side`
    /// (the aspect ratio dropped, as the hash wants) as Pillow's `resize(…, LANCZOS)` does it
    /// — what imagehash's `phash` calls on the whole image: a Lanczos-3 kernel widened by the
    /// reduction factor (so every source pixel counts, no aliasing), rows then columns, the
    /// weights of each output pixel summing to 1; each pass clipped to 0…255 as Pillow's.
    /// Rounded to a level once, at the end (Pillow rounds after each pass too: the two differ
    /// by a level at most, `PerceptualHashTests`).
    public static func squeezed(grey pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int) -> [UInt8] {
        precondition(width > 0 && height > 0 && pixels.count == width * height, "a grey picture")
        let across = lanczosWeights(from: width)
        let down = lanczosWeights(from: height)
        // Rows first: height × side.
        var rows = [Double](repeating: 0, count: height * side)
        for y in 0..<height {
            let line = y * width
            for (x, taps) in across.enumerated() {
                var sum = 0.0
                for (offset, weight) in taps.weights.enumerated() {
                    sum += weight * Double(pixels[line + taps.first + offset])
                }
                rows[y * side + x] = max(0, min(255, sum))
            }
        }
        var small = [UInt8](repeating: 0, count: side * side)
        for (y, taps) in down.enumerated() {
            for x in 0..<side {
                var sum = 0.0
                for (offset, weight) in taps.weights.enumerated() {
                    sum += weight * rows[(taps.first + offset) * side + x]
                }
                small[y * side + x] = UInt8(max(0, min(255, sum.rounded())))
            }
        }
        return small
    }

    /// For each of `side` output pixels along a line of `length`, the first source pixel it
    /// takes and the weights of it and the ones after (Pillow's `precompute_coeffs`).
    private static func lanczosWeights(from length: Int) -> [(first: Int, weights: [Double])] {
        let scale = Double(length) / Double(side)
        let widening = max(scale, 1)
        let support = 3 * widening
        func lanczos(_ x: Double) -> Double {
            guard x != 0 else { return 1 }
            guard abs(x) < 3 else { return 0 }
            return 3 * sin(Double.pi * x) * sin(Double.pi * x / 3) / (Double.pi * Double.pi * x * x)
        }
        return (0..<side).map { index in
            let center = (Double(index) + 0.5) * scale
            let first = max(Int(center - support + 0.5), 0)
            let end = min(Int(center + support + 0.5), length)
            var weights = (first..<max(end, first + 1)).map { lanczos((Double($0) - center + 0.5) / widening) }
            let total = weights.reduce(0, +)
            if total != 0 { weights = weights.map { $0 / total } }
            return (first, weights)
        }
    }

    /// Below this, a coefficient is rounding noise (see `init(grey:)`).
    static let noise = 1e-6

    /// cos(π u (2x + 1) / 2N) for the detail hash's frequencies u and every position x.
    private static let cosines: [Double] = (0..<DetailHash.kept).flatMap { u in
        (0..<side).map { x in cos(Double.pi * Double(u) * Double(2 * x + 1) / Double(2 * side)) }
    }
}

extension DetailHash {
    /// The lowest frequencies kept: a 16 × 16 block, 256 bits.
    static let kept = 16

    /// The detail hash of a 32 × 32 grey picture (`PerceptualHash.hashes(grey:)`).
    public init(grey pixels: [UInt8]) {
        self = PerceptualHash.hashes(grey: pixels).detail
    }
}
