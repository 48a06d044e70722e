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

/// Turns pixels coded as a `ColourEncoding` into 8-bit sRGB, the thumbnail's colours:
/// decoded to linear light, converted to BT.709 primaries, HDR tone-mapped, encoded with
/// the sRGB curve.
///
/// **Linear light, relative to SDR white.** SDR curves decode to 0…1. HDR light is placed
/// by BT.2408's reference white, 203 cd/m², which becomes 1.0: PQ's absolute light
/// (ST 2084's EOTF) is divided by 203; HLG's scene light (BT.2100's inverse OETF) is
/// first rendered for BT.2100's nominal 1,000 cd/m² display (its OOTF, system gamma
/// 1.2), where a 75 % signal — HLG's reference white — comes out at 203 cd/m².
///
/// **Tone mapping** (HDR only): highlights above SDR white are compressed into it by
/// FFmpeg's `mobius` curve (vf_tonemap.c: linear up to `knee`, then a Möbius transform
/// reaching 1 at `peak`), applied to the largest of the three components and the pixel
/// scaled by the same factor, so that hues keep their ratios (FFmpeg's tonemap filter does
/// the same). The peak is 1,000 cd/m² — HLG's nominal display and the usual mastering
/// peak of PQ — 4.93 × reference white; brighter PQ light is clipped.
///
/// Applied to pictures already shrunk to the size asked for (a thumbnail, an OCR page):
/// the shrinking averages coded values, not light — a difference invisible at that size.
struct ColourConverter {
    let encoding: ColourEncoding
    /// Coded value (16 bits) to linear light; for HLG the scene light before the OOTF.
    private let decode: [Float]
    /// Row-major: linear light in the source primaries to BT.709's.
    private let matrix: [Float]
    /// Linear light 0…1 in steps of 1/65535 to the sRGB curve's 8-bit value.
    private let encode: [UInt8]

    /// BT.2408: the light of SDR white in an HDR picture.
    static let referenceWhite: Double = 203
    /// BT.2100's nominal peak display, HLG's and the tone curve's peak.
    static let nominalPeak: Double = 1000
    /// Below this (linear, SDR white = 1) the tone curve leaves light as it is.
    static let knee: Float = 0.8

    init(_ encoding: ColourEncoding) {
        self.encoding = encoding
        decode = (0...65535).map { Float(Self.linear(Double($0) / 65535, transfer: encoding.transfer)) }
        matrix = Self.toBT709(from: encoding.primaries).map { Float($0) }
        encode = (0...65535).map { code in
            let light = Double(code) / 65535
            let value = light <= 0.0031308 ? 12.92 * light : 1.055 * pow(light, 1 / 2.4) - 0.055
            return UInt8((value * 255).rounded())
        }
    }

    /// The linear light of coded value `value` (0…1): relative to SDR white, except HLG,
    /// whose scene light (0…1) the OOTF turns into display light per pixel.
    static func linear(_ value: Double, transfer: ColourEncoding.Transfer) -> Double {
        switch transfer {
        case .sdr:
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        case .gamma(let gamma):
            return pow(value, gamma)
        case .linear:
            return value
        case .pq:
            // SMPTE ST 2084's EOTF.
            let m1 = 2610.0 / 16384
            let m2 = 2523.0 / 4096 * 128
            let c1 = 3424.0 / 4096
            let c2 = 2413.0 / 4096 * 32
            let c3 = 2392.0 / 4096 * 32
            let power = pow(value, 1 / m2)
            let light = pow(max(power - c1, 0) / (c2 - c3 * power), 1 / m1)
            return light * 10000 / referenceWhite
        case .hlg:
            // BT.2100's inverse OETF: scene light 0…1.
            let a = 0.17883277
            let b = 1 - 4 * a
            let c = 0.5 - a * log(4 * a)
            return value <= 0.5 ? value * value / 3 : (exp((value - c) / a) + b) / 12
        }
    }

    /// FFmpeg's Möbius tone curve (vf_tonemap.c): `value` below `knee` unchanged, `peak`
    /// to 1, smooth in between.
    static func mobius(_ value: Float, knee: Float, peak: Float) -> Float {
        guard value > knee else { return value }
        let a = -knee * knee * (peak - 1) / (knee * knee - 2 * knee + peak)
        let b = (knee * knee - 2 * knee * peak + peak) / max(peak - 1, 1e-6)
        return (b * b + 2 * b * knee + knee * knee) / (b - a) * (value + a) / (value + b)
    }

    /// 8-bit sRGB pixels (3 bands) from `bands` interleaved 16-bit samples a pixel (grey,
    /// grey and alpha, RGB, RGB and alpha). Alpha is flattened onto white.
    func convert(_ samples: UnsafeBufferPointer<UInt16>, bands: Int) -> [UInt8] {
        precondition((1...4).contains(bands))
        let pixels = samples.count / bands
        var out = [UInt8](repeating: 0, count: pixels * 3)
        let colour = bands >= 3
        let alpha = bands == 2 || bands == 4
        let m = matrix
        let hdr = encoding.isHDR
        let hlg = encoding.transfer == .hlg
        let hlgScale = Float(Self.nominalPeak / Self.referenceWhite)
        let peak = Float(Self.nominalPeak / Self.referenceWhite)
        let knee = Self.knee
        out.withUnsafeMutableBufferPointer { out in
            decode.withUnsafeBufferPointer { decode in
                encode.withUnsafeBufferPointer { encode in
                    for pixel in 0..<pixels {
                        let base = pixel * bands
                        var r = decode[Int(samples[base])]
                        var g = colour ? decode[Int(samples[base + 1])] : r
                        var b = colour ? decode[Int(samples[base + 2])] : r
                        if hlg {
                            // BT.2100's OOTF for a 1,000 cd/m² display: gamma 1.2 on the
                            // scene luminance (BT.2020's coefficients).
                            let luminance = max(0.2627 * r + 0.6780 * g + 0.0593 * b, 1e-6)
                            let gain = hlgScale * Float(pow(Double(luminance), 0.2))
                            r *= gain
                            g *= gain
                            b *= gain
                        }
                        var red = max(0, m[0] * r + m[1] * g + m[2] * b)
                        var green = max(0, m[3] * r + m[4] * g + m[5] * b)
                        var blue = max(0, m[6] * r + m[7] * g + m[8] * b)
                        if hdr {
                            let largest = max(red, green, blue)
                            if largest > knee {
                                let scale = Self.mobius(largest, knee: knee, peak: peak) / largest
                                red *= scale
                                green *= scale
                                blue *= scale
                            }
                        }
                        if alpha {
                            let a = Float(samples[base + bands - 1]) / 65535
                            red = red * a + (1 - a)
                            green = green * a + (1 - a)
                            blue = blue * a + (1 - a)
                        }
                        out[pixel * 3] = encode[Int(min(red, 1) * 65535 + 0.5)]
                        out[pixel * 3 + 1] = encode[Int(min(green, 1) * 65535 + 0.5)]
                        out[pixel * 3 + 2] = encode[Int(min(blue, 1) * 65535 + 0.5)]
                    }
                }
            }
        }
        return out
    }

    /// The 3×3 matrix from linear light in `primaries` to linear light in BT.709's, both
    /// with the D65 white point: RGB → XYZ from the primaries' chromaticities, then XYZ →
    /// BT.709 RGB.
    static func toBT709(from primaries: ColourEncoding.Primaries) -> [Double] {
        let white = (x: 0.3127, y: 0.3290)
        let bt709 = [(0.640, 0.330), (0.300, 0.600), (0.150, 0.060)]
        let source: [(Double, Double)] =
            switch primaries {
            case .bt709: bt709
            case .bt2020: [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)]
            case .displayP3: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]
            }
        return Matrix3.multiply(
            Matrix3.inverse(Matrix3.rgbToXYZ(bt709, white: white)),
            Matrix3.rgbToXYZ(source, white: white)
        )
    }
}

/// Row-major 3×3 matrices, for the primaries conversion.
enum Matrix3 {
    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { index in
            let row = index / 3
            let column = index % 3
            return (0..<3).reduce(0) { $0 + a[row * 3 + $1] * b[$1 * 3 + column] }
        }
    }

    static func inverse(_ m: [Double]) -> [Double] {
        let cofactors = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        let determinant = m[0] * cofactors[0] + m[1] * cofactors[3] + m[2] * cofactors[6]
        return cofactors.map { $0 / determinant }
    }

    /// RGB → XYZ for primaries at chromaticities `xy`, scaled so that RGB 1,1,1 is `white`
    /// with Y = 1.
    static func rgbToXYZ(_ xy: [(Double, Double)], white: (x: Double, y: Double)) -> [Double] {
        // Columns: each primary's XYZ at Y = 1.
        let columns = xy.map { (x, y) in [x / y, 1, (1 - x - y) / y] }
        let unscaled = (0..<9).map { columns[$0 % 3][$0 / 3] }
        let whiteXYZ = [white.x / white.y, 1, (1 - white.x - white.y) / white.y]
        let inverse = inverse(unscaled)
        let scale = (0..<3).map { row in (0..<3).reduce(0) { $0 + inverse[row * 3 + $1] * whiteXYZ[$1] } }
        return (0..<9).map { unscaled[$0] * scale[$0 % 3] }
    }
}
