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
import PhotoProcessing
import PhotomillCore

/// A made-up landscape, the same pixels for the same seed: a sky gradient, hills, a
/// sun, buildings and trees with mild noise, so that encoders and thumbnailers see
/// something like a photo. The four corners hold solid markers (red top left, green top
/// right, blue bottom left, yellow bottom right) so that any rotation or mirroring a
/// reader gets wrong shows.
public struct SampleScene: Sendable, Hashable {
    public var seed: UInt64

    public init(seed: UInt64) { self.seed = seed }

    public static let topLeft = RGBImage.Pixel(red: 255, green: 0, blue: 0)
    public static let topRight = RGBImage.Pixel(red: 0, green: 255, blue: 0)
    public static let bottomLeft = RGBImage.Pixel(red: 0, green: 0, blue: 255)
    public static let bottomRight = RGBImage.Pixel(red: 255, green: 255, blue: 0)

    /// Side of each corner marker.
    public static func markerSide(width: Int, height: Int) -> Int { max(1, min(width, height) / 5) }

    /// The scene as a viewer should show it.
    public func render(width: Int, height: Int) -> RGBImage {
        precondition(width > 0 && height > 0, "empty scene")
        var rng = SplitMix64(seed: seed)
        var canvas = Canvas(width: width, height: height, noiseSeed: UInt32(truncatingIfNeeded: rng.next()))
        let w = Double(width)
        let h = Double(height)

        let light = rng.pick(Light.all)
        let horizonBase = h * rng.double(in: 0.45..<0.65)
        let (amplitude1, amplitude2) = (h * rng.double(in: 0.02..<0.07), h * rng.double(in: 0.01..<0.03))
        let (frequency1, frequency2) = (rng.double(in: 1..<3), rng.double(in: 4..<9))
        let (phase1, phase2) = (rng.double(in: 0..<6.3), rng.double(in: 0..<6.3))
        let horizon = (0..<width).map { x -> Int in
            let t = Double(x) / w * 2 * .pi
            return Int(
                horizonBase - amplitude1 * sin(t * frequency1 + phase1) - amplitude2 * sin(t * frequency2 + phase2)
            )
        }
        canvas.fillLandscape(horizon: horizon, horizonBase: Int(horizonBase), light: light)

        let shortSide = min(w, h)
        let sunRadius = shortSide * rng.double(in: 0.04..<0.08)
        canvas.fillCircle(
            x: w * rng.double(in: 0.3..<0.7),
            y: horizonBase * rng.double(in: 0.3..<0.6),
            radius: sunRadius,
            colour: light.sun
        )

        for _ in 0..<rng.int(in: 1...3) {
            let left = w * rng.double(in: 0.1..<0.8)
            let buildingWidth = w * rng.double(in: 0.05..<0.14)
            let ground = Double(horizon[min(width - 1, Int(left))]) + h * 0.02
            let top = ground - h * rng.double(in: 0.08..<0.25)
            let colour = rng.pick(Self.buildingColours)
            canvas.fillRect(x0: left, y0: top, x1: left + buildingWidth, y1: ground, colour: colour)
            // Windows: a darker grid, so the building has edges a JPEG must keep.
            let rows = 2 + rng.int(in: 0...3)
            let columns = 2 + rng.int(in: 0...2)
            let cellW = buildingWidth / Double(columns)
            let cellH = (ground - top) / Double(rows + 1)
            for row in 0..<rows {
                for column in 0..<columns {
                    let x = left + cellW * (Double(column) + 0.25)
                    let y = top + cellH * (Double(row) + 0.5)
                    canvas.fillRect(x0: x, y0: y, x1: x + cellW * 0.5, y1: y + cellH * 0.5, colour: Colour(60, 64, 80))
                }
            }
        }
        for _ in 0..<rng.int(in: 2...5) {
            let x = w * rng.double(in: 0.05..<0.95)
            let base = Double(horizon[min(width - 1, Int(x))]) + h * rng.double(in: 0.05..<0.3)
            let crown = shortSide * rng.double(in: 0.04..<0.09)
            canvas.fillRect(
                x0: x - crown * 0.15,
                y0: base - crown * 1.5,
                x1: x + crown * 0.15,
                y1: base,
                colour: Colour(92, 64, 40)
            )
            canvas.fillCircle(x: x, y: base - crown * 1.8, radius: crown, colour: rng.pick(Self.treeColours))
        }

        let side = Double(Self.markerSide(width: width, height: height))
        canvas.fillRect(x0: 0, y0: 0, x1: side, y1: side, solid: Self.topLeft)
        canvas.fillRect(x0: w - side, y0: 0, x1: w, y1: side, solid: Self.topRight)
        canvas.fillRect(x0: 0, y0: h - side, x1: side, y1: h, solid: Self.bottomLeft)
        canvas.fillRect(x0: w - side, y0: h - side, x1: w, y1: h, solid: Self.bottomRight)
        return RGBImage(width: width, height: height, pixels: canvas.pixels)
    }

    /// The pixels a file with EXIF `orientation` stores so that a viewer applying the
    /// orientation shows `upright`. For 5…8 the stored image is height × width.
    public static func stored(_ upright: RGBImage, orientation: Int) -> RGBImage {
        precondition((1...8).contains(orientation), "EXIF orientation \(orientation) is not 1…8")
        let W = upright.width
        let H = upright.height
        // Stored (x, y) shows upright (ux, uy) = (a0 + a1·x + a2·y, b0 + b1·x + b2·y).
        let (a0, a1, a2, b0, b1, b2): (Int, Int, Int, Int, Int, Int)
        switch orientation {
        case 1: (a0, a1, a2, b0, b1, b2) = (0, 1, 0, 0, 0, 1)
        case 2: (a0, a1, a2, b0, b1, b2) = (W - 1, -1, 0, 0, 0, 1)
        case 3: (a0, a1, a2, b0, b1, b2) = (W - 1, -1, 0, H - 1, 0, -1)
        case 4: (a0, a1, a2, b0, b1, b2) = (0, 1, 0, H - 1, 0, -1)
        case 5: (a0, a1, a2, b0, b1, b2) = (0, 0, 1, 0, 1, 0)
        case 6: (a0, a1, a2, b0, b1, b2) = (W - 1, 0, -1, 0, 1, 0)
        case 7: (a0, a1, a2, b0, b1, b2) = (W - 1, 0, -1, H - 1, -1, 0)
        default: (a0, a1, a2, b0, b1, b2) = (0, 0, 1, H - 1, -1, 0)
        }
        if orientation == 1 { return upright }
        let (sw, sh) = orientation >= 5 ? (H, W) : (W, H)
        var out = [UInt8](repeating: 0, count: upright.pixels.count)
        // The source offset moves by a fixed step along a stored row, which keeps the
        // inner loop to three copies and an add even in debug builds.
        let step = (b1 * W + a1) * 3
        upright.pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                let src = source.baseAddress!
                let dst = target.baseAddress!
                var d = 0
                for y in 0..<sh {
                    var s = ((b0 + b2 * y) * W + a0 + a2 * y) * 3
                    for _ in 0..<sw {
                        dst[d] = src[s]
                        dst[d + 1] = src[s + 1]
                        dst[d + 2] = src[s + 2]
                        d += 3
                        s += step
                    }
                }
            }
        }
        return RGBImage(width: sw, height: sh, pixels: out)
    }

    static let buildingColours = [
        Colour(178, 160, 140), Colour(150, 150, 158), Colour(196, 120, 96), Colour(220, 208, 180),
    ]
    static let treeColours = [Colour(40, 96, 48), Colour(58, 110, 40), Colour(30, 80, 60)]
}

/// A colour whose channels stay within 10…245, so that noise of ±8 never needs clamping.
struct Colour {
    var r: Int, g: Int, b: Int
    init(_ r: Int, _ g: Int, _ b: Int) {
        self.r = min(245, max(10, r))
        self.g = min(245, max(10, g))
        self.b = min(245, max(10, b))
    }

    func mixed(with other: Colour, _ t: Double) -> Colour {
        let t = min(1, max(0, t))
        return Colour(
            r + Int(Double(other.r - r) * t),
            g + Int(Double(other.g - g) * t),
            b + Int(Double(other.b - b) * t)
        )
    }
}

/// Sky and ground colours for one time of day.
struct Light {
    var skyTop: Colour, skyHorizon: Colour, farGround: Colour, nearGround: Colour, sun: Colour

    static let all = [
        Light(
            skyTop: Colour(40, 90, 190),
            skyHorizon: Colour(170, 205, 235),
            farGround: Colour(110, 150, 80),
            nearGround: Colour(60, 110, 40),
            sun: Colour(250, 245, 210)
        ),
        Light(
            skyTop: Colour(60, 50, 120),
            skyHorizon: Colour(245, 150, 80),
            farGround: Colour(90, 80, 60),
            nearGround: Colour(50, 45, 35),
            sun: Colour(250, 200, 120)
        ),
        Light(
            skyTop: Colour(150, 155, 165),
            skyHorizon: Colour(205, 205, 210),
            farGround: Colour(120, 130, 100),
            nearGround: Colour(80, 90, 70),
            sun: Colour(225, 225, 225)
        ),
        Light(
            skyTop: Colour(90, 150, 210),
            skyHorizon: Colour(220, 230, 240),
            farGround: Colour(190, 170, 120),
            nearGround: Colour(160, 130, 90),
            sun: Colour(250, 250, 235)
        ),
    ]
}

/// Mutable pixels with the drawing operations scenes need.
struct Canvas {
    let width: Int
    let height: Int
    var pixels: [UInt8]
    private var noise: UInt32

    init(width: Int, height: Int, noiseSeed: UInt32) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        noise = noiseSeed | 1
    }

    /// Sky above `horizon[x]`, ground below; colours follow rows, so per pixel there is
    /// only a comparison, the noise step and three stores.
    mutating func fillLandscape(horizon: [Int], horizonBase: Int, light: Light) {
        let width = width
        let height = height
        var noise = noise
        horizon.withUnsafeBufferPointer { horizonBuffer in
            pixels.withUnsafeMutableBufferPointer { buffer in
                let p = buffer.baseAddress!
                let line = horizonBuffer.baseAddress!
                for y in 0..<height {
                    let sky = light.skyTop.mixed(with: light.skyHorizon, Double(y) / Double(max(1, horizonBase)))
                    let ground = light.farGround.mixed(
                        with: light.nearGround,
                        Double(y - horizonBase) / Double(max(1, height - horizonBase))
                    )
                    var i = y * width * 3
                    for x in 0..<width {
                        let c = y < line[x] ? sky : ground
                        noise = noise &* 1_664_525 &+ 1_013_904_223
                        let n = Int(noise >> 28) - 8
                        let m = Int((noise >> 24) & 3) - 1
                        p[i] = UInt8(truncatingIfNeeded: c.r + n + m)
                        p[i + 1] = UInt8(truncatingIfNeeded: c.g + n)
                        p[i + 2] = UInt8(truncatingIfNeeded: c.b + n - m)
                        i += 3
                    }
                }
            }
        }
        self.noise = noise
    }

    /// Clipped to the canvas; coordinates are edges, so x1 is excluded.
    private func span(_ a: Double, _ b: Double, limit: Int) -> Range<Int>? {
        let lower = max(0, Int(a.rounded()))
        let upper = min(limit, Int(b.rounded()))
        return lower < upper ? lower..<upper : nil
    }

    mutating func fillRect(x0: Double, y0: Double, x1: Double, y1: Double, colour: Colour) {
        guard let rows = span(y0, y1, limit: height), let columns = span(x0, x1, limit: width) else { return }
        for y in rows { fillRow(y, columns, colour) }
    }

    /// Exact colour, no noise: the markers must be unmistakable.
    mutating func fillRect(x0: Double, y0: Double, x1: Double, y1: Double, solid: RGBImage.Pixel) {
        guard let rows = span(y0, y1, limit: height), let columns = span(x0, x1, limit: width) else { return }
        let width = width
        pixels.withUnsafeMutableBufferPointer { buffer in
            let p = buffer.baseAddress!
            for y in rows {
                var i = (y * width + columns.lowerBound) * 3
                for _ in columns {
                    p[i] = solid.red
                    p[i + 1] = solid.green
                    p[i + 2] = solid.blue
                    i += 3
                }
            }
        }
    }

    mutating func fillCircle(x: Double, y: Double, radius: Double, colour: Colour) {
        guard let rows = span(y - radius, y + radius, limit: height) else { return }
        for row in rows {
            let dy = Double(row) + 0.5 - y
            let half = (radius * radius - dy * dy).squareRoot()
            if half.isNaN { continue }
            if let columns = span(x - half, x + half, limit: width) { fillRow(row, columns, colour) }
        }
    }

    private mutating func fillRow(_ y: Int, _ columns: Range<Int>, _ c: Colour) {
        let width = width
        var noise = noise
        pixels.withUnsafeMutableBufferPointer { buffer in
            let p = buffer.baseAddress!
            var i = (y * width + columns.lowerBound) * 3
            for _ in columns {
                noise = noise &* 1_664_525 &+ 1_013_904_223
                let n = Int(noise >> 29) - 4
                p[i] = UInt8(truncatingIfNeeded: c.r + n)
                p[i + 1] = UInt8(truncatingIfNeeded: c.g + n)
                p[i + 2] = UInt8(truncatingIfNeeded: c.b + n)
                i += 3
            }
        }
        self.noise = noise
    }
}
